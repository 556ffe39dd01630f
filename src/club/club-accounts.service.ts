import { Injectable, Optional } from '@nestjs/common';
import { CaptchaService } from '../captcha/captcha.service';
import { ApiError } from '../common/errors/api-error';
import { UUID_PATTERN } from '../common/identifiers';
import { isUniqueViolation } from '../database/database-errors';
import { UnitOfWork } from '../database/unit-of-work';
import { PlayersService } from '../players/players.service';
import { AttemptKind, BruteForceLimiter } from '../security/brute-force.limiter';
import { UserKeysService } from '../user-keys/user-keys.service';
import type { ClubGroup } from './club-account.entity';
import { type AccountCredentials, ClubAccountsRepository } from './club-accounts.repository';
import type { ClubSession } from './club-session';
import { ClubTokensService, IssuedToken } from './club-tokens.service';
import { NicknameDto, RegisterDto, SignInDto } from './dto/club.dto';
import { cleanNickname } from './nickname';
import { type HashCaller, PasswordsService } from './passwords.service';

const WRONG_CREDENTIALS = 'club.wrongCredentials';

@Injectable()
export class ClubAccountsService {
  constructor(
    private readonly accounts: ClubAccountsRepository,
    private readonly tokens: ClubTokensService,
    private readonly userKeys: UserKeysService,
    private readonly players: PlayersService,
    private readonly passwords: PasswordsService,
    private readonly captcha: CaptchaService,
    private readonly unitOfWork: UnitOfWork,
    // Absent in the CLI, which has no HTTP callers to limit.
    @Optional() private readonly bruteForce?: BruteForceLimiter,
  ) {}

  async register(input: RegisterDto, ip: string): Promise<IssuedToken> {
    // Failed user keys count per (named player, address) and per address; 429 once over the limit.
    return this.limited('register', input.username ?? '*', ip, () => this.registerUnlimited(input, ip));
  }

  private async registerUnlimited(input: RegisterDto, ip: string): Promise<IssuedToken> {
    const key = await this.userKeys.peek(input.userkey ?? input.verificationCode ?? '');
    if (input.username && !(await this.isSamePlayer(input.username, key.playerUuid))) {
      throw ApiError.invalidField('username', 'club.usernameMismatch');
    }
    if (await this.accounts.existsForPlayer(key.playerUuid)) {
      throw ApiError.conflict('club.accountExists');
    }
    await this.captcha.verify(input.recaptcha, ip);
    const passwordHash = await this.passwords.hash(input.password, { account: key.playerUuid, address: ip });
    try {
      const issued = await this.unitOfWork.transaction(async (tx) => {
        await this.userKeys.spend(tx, key);
        const accountId = await this.accounts.create(tx, key.playerUuid, passwordHash, new Date());
        return this.tokens.issue(tx, accountId);
      });
      // The key proved the player: this address is trusted for the account (sign-in limits, rule b).
      await this.bruteForce?.succeeded(key.playerUuid, ip);
      return issued;
    } catch (error) {
      if (isUniqueViolation(error)) {
        throw ApiError.conflict('club.accountExists');
      }
      throw error;
    }
  }

  async signIn(input: SignInDto, ip: string): Promise<IssuedToken> {
    const player = UUID_PATTERN.test(input.username) ? await this.players.findByUuid(input.username) : await this.players.findByMcid(input.username);
    // Keyed by the player, so the game id and the uuid of one account share a counter; unknown names count too.
    // The hashing queue's share is by the same account key as the sign-in limits, and the address.
    const caller = { account: player?.uuid ?? input.username, address: ip };
    return this.limited('sign-in', caller.account, ip, async () => {
      const account = await this.checkCredentials(player?.uuid, input, ip, caller);
      if (!account) {
        throw ApiError.unauthorized(WRONG_CREDENTIALS);
      }
      return this.unitOfWork.transaction(async (tx) => {
        // Deleted while the password was checked: the answer a moment later, not a foreign-key 500.
        if (!(await this.accounts.lockExisting(tx, account.id))) {
          throw ApiError.unauthorized(WRONG_CREDENTIALS);
        }
        return this.tokens.issue(tx, account.id);
      });
    });
  }

  /**
   * The CAPTCHA, then the password: the account when it is right, null otherwise (the same work
   * for an unknown player). The caller's places in the hashing queue are taken first and held
   * throughout, so a caller past its share costs no CAPTCHA verification and no database read.
   */
  private async checkCredentials(playerUuid: string | undefined, input: SignInDto, ip: string, caller: HashCaller): Promise<AccountCredentials | null> {
    const check = this.passwords.reserve(caller);
    try {
      await this.captcha.verify(input.recaptcha, ip);
      const account = playerUuid ? await this.accounts.getCredentials(playerUuid) : null;
      if (!account) {
        await check.verifyAgainstNothing(input.password);
        return null;
      }
      return (await check.verify(account.passwordHash, input.password)) ? account : null;
    } finally {
      check.release();
    }
  }

  private limited<T>(kind: AttemptKind, account: string, ip: string, attempt: () => Promise<T>): Promise<T> {
    return this.bruteForce ? this.bruteForce.guard(kind, account, ip, attempt) : attempt();
  }

  async setNickname(session: ClubSession, input: NicknameDto, ip: string): Promise<string> {
    const cleaned = cleanNickname(input.nickname);
    if (!cleaned.ok) {
      throw ApiError.invalidField('nickname', cleaned.reason);
    }
    await this.captcha.verify(input.recaptcha, ip);
    const updated = await this.unitOfWork.transaction((tx) => this.accounts.setNickname(tx, session.accountId, cleaned.nickname));
    if (!updated) {
      // The account was deleted after this request was authenticated: its token is gone too.
      throw ApiError.unauthorized('auth.tokenInvalid');
    }
    return cleaned.nickname;
  }

  /** Sets the club group of a player's account (CLI). Returns false when the player has no account. */
  async setGroup(player: string, group: ClubGroup): Promise<boolean> {
    const found = UUID_PATTERN.test(player) ? await this.players.findByUuid(player) : await this.players.findByMcid(player);
    if (!found) {
      return false;
    }
    return this.unitOfWork.transaction((tx) => this.accounts.setGroup(tx, found.uuid, group));
  }

  private async isSamePlayer(username: string, playerUuid: string): Promise<boolean> {
    if (UUID_PATTERN.test(username)) {
      return username.toLowerCase() === playerUuid;
    }
    const player = await this.players.findByUuid(playerUuid);
    return player?.mcid?.toLowerCase() === username.toLowerCase();
  }
}
