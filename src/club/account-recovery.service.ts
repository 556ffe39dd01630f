import { Injectable, Optional } from '@nestjs/common';
import { CaptchaService } from '../captcha/captcha.service';
import { ApiError } from '../common/errors/api-error';
import { UnitOfWork } from '../database/unit-of-work';
import { AttemptKind, BruteForceLimiter } from '../security/brute-force.limiter';
import { UserKeysService } from '../user-keys/user-keys.service';
import { ClubAccountsRepository } from './club-accounts.repository';
import type { ClubSession } from './club-session';
import { ClubTokensService, IssuedToken } from './club-tokens.service';
import { AccountDeleteDto, PasswordChangeDto, PasswordResetDto } from './dto/club.dto';
import { PasswordsService } from './passwords.service';

const WRONG_PASSWORD = 'club.wrongPassword';
/** What a request authenticated a moment before an account deletion gets: its token is gone. */
const TOKEN_GONE = 'auth.tokenInvalid';

/**
 * The way back in (docs/club-site.md) (password reset with a new in-game user key), password change
 * and account deletion. Each is a credential check under the sign-in limits: a wrong password or
 * user key counts as a failure, and a refused caller gets 429 before anything is checked.
 */
@Injectable()
export class AccountRecoveryService {
  constructor(
    private readonly accounts: ClubAccountsRepository,
    private readonly tokens: ClubTokensService,
    private readonly userKeys: UserKeysService,
    private readonly passwords: PasswordsService,
    private readonly captcha: CaptchaService,
    private readonly unitOfWork: UnitOfWork,
    // Absent in the CLI, which has no HTTP callers to limit.
    @Optional() private readonly bruteForce?: BruteForceLimiter,
  ) {}

  /** Sets a new password for the user key's player; 404 (key unspent) when the player has no account. */
  async resetPassword(input: PasswordResetDto, ip: string): Promise<IssuedToken> {
    const issued = await this.limited('password-reset', '*', ip, async () => {
      const key = await this.userKeys.peek(input.userkey ?? input.verificationCode ?? '');
      const account = await this.accounts.getCredentials(key.playerUuid);
      if (!account) {
        throw ApiError.notFound('club.noAccountForKey');
      }
      await this.captcha.verify(input.recaptcha, ip);
      const passwordHash = await this.passwords.hash(input.password, { account: key.playerUuid, address: ip });
      const token = await this.unitOfWork.transaction(async (tx) => {
        // Read again inside the transaction: the account may have been deleted since (404, key unspent).
        if (!(await this.accounts.lockExisting(tx, account.id))) {
          throw ApiError.notFound('club.noAccountForKey');
        }
        await this.userKeys.spend(tx, key);
        await this.accounts.setPassword(tx, account.id, passwordHash);
        // The new token supersedes every older one of the account.
        return this.tokens.issue(tx, account.id);
      });
      return { token, playerUuid: key.playerUuid };
    });
    // The key proved the player: their failed sign-ins are forgiven and this address trusted.
    await this.bruteForce?.succeeded(issued.playerUuid, ip);
    return issued.token;
  }

  /** Replaces the password after checking the current one; the new token supersedes every older one. */
  changePassword(session: ClubSession, input: PasswordChangeDto, ip: string): Promise<IssuedToken> {
    return this.limited('password-change', session.playerUuid, ip, async () => {
      const accountId = await this.checkPassword(session, input.password, input.recaptcha, ip);
      const passwordHash = await this.passwords.hash(input.newPassword, { account: session.playerUuid, address: ip });
      return this.unitOfWork.transaction(async (tx) => {
        if (!(await this.accounts.lockExisting(tx, accountId))) {
          throw ApiError.unauthorized(TOKEN_GONE);
        }
        await this.accounts.setPassword(tx, accountId, passwordHash);
        return this.tokens.issue(tx, accountId);
      });
    });
  }

  /** Deletes the account and its tokens after checking the password; the player's game records stay. */
  async deleteAccount(session: ClubSession, input: AccountDeleteDto, ip: string): Promise<void> {
    await this.limited('account-delete', session.playerUuid, ip, async () => {
      const accountId = await this.checkPassword(session, input.password, input.recaptcha, ip);
      await this.unitOfWork.transaction(async (tx) => {
        await this.tokens.revokeAll(tx, accountId);
        if (!(await this.accounts.delete(tx, accountId))) {
          // A second deletion racing the first: it is gone already.
          throw ApiError.unauthorized(TOKEN_GONE);
        }
      });
    });
  }

  /** The CAPTCHA, then the password of the session's account: 401 (a failed sign-in) when wrong. */
  private async checkPassword(session: ClubSession, password: string, recaptcha: string, ip: string): Promise<number> {
    await this.captcha.verify(recaptcha, ip);
    const account = await this.accounts.getCredentials(session.playerUuid);
    if (!account || account.id !== session.accountId || !(await this.passwords.verify(account.passwordHash, password, { account: session.playerUuid, address: ip }))) {
      throw ApiError.unauthorized(WRONG_PASSWORD);
    }
    return account.id;
  }

  private limited<T>(kind: AttemptKind, account: string, ip: string, attempt: () => Promise<T>): Promise<T> {
    return this.bruteForce ? this.bruteForce.guard(kind, account, ip, attempt) : attempt();
  }
}
