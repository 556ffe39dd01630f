import { Controller, Delete, Get, HttpCode, Post, Res } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import type { Caller } from '../auth/caller';
import { AuthCaller, type CookieSession, ConsoleSessionAuth, CurrentConsoleSession, OperatorCredentialAuth, OverHttps } from '../auth/auth.decorators';
import { ApiEnvelope, ApiErrors } from '../common/openapi/api-docs.decorators';
import { ConsoleSessionsService, ConsoleSessionView } from './console-sessions.service';
import { ConsoleSessionResponseDoc, NullableConsoleSessionResponseDoc } from './dto/console-session.doc';
import { SessionCookie } from './console-session.decorators';
import { sessionCookieHeader } from './session-cookie';

/** Signing in to the operator console (docs/console-and-maps.md, Signing in to the console). */
@ApiTags('console')
@Controller('console-session')
export class ConsoleSessionsController {
  constructor(private readonly sessions: ConsoleSessionsService) {}

  @Post()
  @OperatorCredentialAuth()
  @ApiOperation({
    summary: 'Sign in to the console: exchange an operator API key or a club admin’s user token for a session cookie',
    description:
      'Sets the console_session cookie (HttpOnly, SameSite=Strict, Path=/; __Host-console_session with Secure over HTTPS). The cookie is accepted on the routes the console calls; calls that change anything also need X-CSRF-Token.',
  })
  @ApiEnvelope(201, 'Signed in; the cookie is set.', ConsoleSessionResponseDoc)
  async signIn(@AuthCaller() caller: Caller, @OverHttps() https: boolean, @Res({ passthrough: true }) reply: FastifyReply): Promise<{ data: ConsoleSessionView }> {
    const started = await this.sessions.start(caller);
    void reply.header('set-cookie', sessionCookieHeader(started.secret, https, started.maxAgeSeconds));
    return { data: started.view };
  }

  @Get()
  @ApiOperation({
    summary: 'The current console session (a reloaded page gets its CSRF token again)',
    description: 'Answers data: null when the request carries no session cookie or its session has ended (and clears the cookie), so a page that is not signed in gets no error.',
  })
  @ApiEnvelope(200, 'The session, or null.', NullableConsoleSessionResponseDoc)
  @ApiErrors([429, 'Too many requests from this address.'], [503, 'The database is unreachable.'])
  async current(@SessionCookie() secret: string | undefined, @OverHttps() https: boolean, @Res({ passthrough: true }) reply: FastifyReply): Promise<{ data: ConsoleSessionView | null }> {
    if (secret === undefined) {
      return { data: null };
    }
    const resolved = await this.sessions.find(secret);
    if (!resolved) {
      void reply.header('set-cookie', sessionCookieHeader('', https, 0));
      return { data: null };
    }
    return { data: this.sessions.view(secret, resolved) };
  }

  @Delete()
  @HttpCode(200)
  @ConsoleSessionAuth()
  @ApiOperation({ summary: 'Sign out of the console: the session ends on the server (and a club admin’s token with it); the cookie is cleared' })
  @ApiEnvelope(200, 'Signed out.')
  @ApiErrors([403, 'X-CSRF-Token missing or wrong, or the Origin is not this server.'])
  async signOut(@CurrentConsoleSession() session: CookieSession, @OverHttps() https: boolean, @Res({ passthrough: true }) reply: FastifyReply): Promise<Record<string, never>> {
    await this.sessions.end(session.resolved);
    void reply.header('set-cookie', sessionCookieHeader('', https, 0));
    return {};
  }
}
