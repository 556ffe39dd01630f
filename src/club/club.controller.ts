import { Controller, Get, HttpCode, Post } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { ClubAuth, Session } from '../auth/auth.decorators';
import { ClientIp, Input } from '../common/http/input.decorator';
import { ApiEnvelope, ApiErrors, ApiInput } from '../common/openapi/api-docs.decorators';
import type { ClubSession } from './club-session';
import { AccountRecoveryService } from './account-recovery.service';
import { ClubAccountsService } from './club-accounts.service';
import { ClubTokensService, IssuedToken } from './club-tokens.service';
import {
  AccountDeleteDto,
  AccountResponseDoc,
  NicknameDto,
  NicknameResponseDoc,
  PasswordChangeDto,
  PasswordResetDto,
  RegisterDto,
  SignInDto,
  TokenResponseDoc,
} from './dto/club.dto';
import { toClubAccountView, ClubAccountView } from './club-account.view';

const captchaErrors: Array<[number, string]> = [
  [400, 'Invalid parameters, or captcha_failed when the CAPTCHA was rejected.'],
  [503, 'The CAPTCHA provider or the database is unreachable.'],
];
/** The sign-in limits and the hashing queue's shares (SECURITY.md, "Limits"). */
const tooMany: [number, string] = [429, 'Too many failed attempts, sign-ins of this account in the hour, or password checks of this account or address already waiting; Retry-After says when to try again.'];

@ApiTags('club')
@Controller('club')
export class ClubController {
  constructor(
    private readonly accounts: ClubAccountsService,
    private readonly tokens: ClubTokensService,
    private readonly recovery: AccountRecoveryService,
  ) {}

  @Get('@me')
  @ClubAuth()
  @ApiOperation({ summary: 'Get the club account behind a user token' })
  @ApiEnvelope(200, 'The account.', AccountResponseDoc)
  me(@Session() session: ClubSession): { data: ClubAccountView } {
    return { data: toClubAccountView(session) };
  }

  @Get('token')
  @ApiOperation({ summary: 'Sign in: check username and password, issue a user token', description: 'POST /club/token does the same and keeps the password out of URLs.' })
  @ApiInput(SignInDto, 'query')
  @ApiEnvelope(200, 'Signed in.', TokenResponseDoc)
  @ApiErrors(...captchaErrors, [401, 'Wrong username or password (the same answer for an unknown user).'], tooMany)
  signInWithQuery(@Input() input: SignInDto, @ClientIp() ip: string): Promise<IssuedToken> {
    return this.accounts.signIn(input, ip);
  }

  @Post('token')
  @HttpCode(200)
  @ApiOperation({ summary: 'Sign in with the credentials in the body' })
  @ApiInput(SignInDto, 'body')
  @ApiEnvelope(200, 'Signed in.', TokenResponseDoc)
  @ApiErrors(...captchaErrors, [401, 'Wrong username or password (the same answer for an unknown user).'], tooMany)
  signInWithBody(@Input() input: SignInDto, @ClientIp() ip: string): Promise<IssuedToken> {
    return this.accounts.signIn(input, ip);
  }

  @Post('register')
  @ApiOperation({ summary: "Register the user key's player and issue a user token" })
  @ApiInput(RegisterDto, 'body')
  @ApiEnvelope(201, 'Registered and signed in.', TokenResponseDoc)
  @ApiErrors(...captchaErrors, [401, 'User key missing, invalid, expired or already used.'], [409, 'The player already has an account.'], tooMany)
  register(@Input() input: RegisterDto, @ClientIp() ip: string): Promise<IssuedToken> {
    return this.accounts.register(input, ip);
  }

  @Post('nickname')
  @HttpCode(200)
  @ClubAuth()
  @ApiOperation({ summary: 'Set the nickname (trimmed; 1-32 characters)' })
  @ApiInput(NicknameDto, 'body')
  @ApiEnvelope(200, 'The stored nickname.', NicknameResponseDoc)
  @ApiErrors(...captchaErrors)
  async setNickname(@Session() session: ClubSession, @Input() input: NicknameDto, @ClientIp() ip: string): Promise<{ nickname: string }> {
    return { nickname: await this.accounts.setNickname(session, input, ip) };
  }

  @Post('password/reset')
  @HttpCode(200)
  @ApiOperation({ summary: 'Reset a forgotten password with a new in-game user key, and sign in', description: 'Spends the key, sets the password, invalidates every token of the account and issues a new one.' })
  @ApiInput(PasswordResetDto, 'body')
  @ApiEnvelope(200, 'Password set; signed in with a new token.', TokenResponseDoc)
  @ApiErrors(...captchaErrors, [401, 'User key missing, invalid, expired or already used.'], [404, "The key's player has no club account (the key stays unspent)."], [429, 'Too many failed attempts.'])
  resetPassword(@Input() input: PasswordResetDto, @ClientIp() ip: string): Promise<IssuedToken> {
    return this.recovery.resetPassword(input, ip);
  }

  @Post('password')
  @HttpCode(200)
  @ClubAuth()
  @ApiOperation({ summary: 'Change the password (the current one is required); every older token is invalidated' })
  @ApiInput(PasswordChangeDto, 'body')
  @ApiEnvelope(200, 'Password changed; a new token.', TokenResponseDoc)
  @ApiErrors(...captchaErrors, [401, 'Token invalid, or the current password is wrong (counts as a failed sign-in).'], [429, 'Too many failed attempts.'])
  changePassword(@Session() session: ClubSession, @Input() input: PasswordChangeDto, @ClientIp() ip: string): Promise<IssuedToken> {
    return this.recovery.changePassword(session, input, ip);
  }

  @Post('@me/delete')
  @HttpCode(200)
  @ClubAuth()
  @ApiOperation({ summary: 'Delete the club account and its tokens (the player\'s game records stay)' })
  @ApiInput(AccountDeleteDto, 'body')
  @ApiEnvelope(200, 'Deleted.')
  @ApiErrors(...captchaErrors, [401, 'Token invalid, or the password is wrong (counts as a failed sign-in).'], [429, 'Too many failed attempts.'])
  async deleteAccount(@Session() session: ClubSession, @Input() input: AccountDeleteDto, @ClientIp() ip: string): Promise<Record<string, never>> {
    await this.recovery.deleteAccount(session, input, ip);
    return {};
  }

  @Post('logout')
  @HttpCode(200)
  @ClubAuth()
  @ApiOperation({ summary: 'Invalidate the user token' })
  @ApiEnvelope(200, 'Logged out.')
  async logout(@Session() session: ClubSession): Promise<Record<string, never>> {
    await this.tokens.logout(session);
    return {};
  }
}
