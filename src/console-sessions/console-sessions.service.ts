import { Injectable } from '@nestjs/common';
import { ApiKeysService } from '../api-keys/api-keys.service';
import type { Caller } from '../auth/caller';
import { ClubTokensService } from '../club/club-tokens.service';
import { ApiError } from '../common/errors/api-error';
import { hashSecret } from '../common/secrets';
import { AppConfig } from '../config/app-config';
import { UnitOfWork } from '../database/unit-of-work';
import { ConsoleSessionRecord, ConsoleSessionsRepository } from './console-sessions.repository';
import { csrfTokenOf, isSessionSecret, newSessionSecret } from './session-cookie';

/** What the console learns about its session (never the cookie itself: that stays HttpOnly). */
export interface ConsoleSessionView {
  kind: 'operator' | 'club-admin';
  /** The API key's name, or the admin's game id (their uuid when it is not known). */
  name: string;
  /** The admin's player uuid (null for an operator). */
  uuid: string | null;
  csrfToken: string;
  /** The latest the session can last: sign-in plus the maximum, or the admin's token's end if sooner. */
  expiresAt: string;
  idleTimeoutSeconds: number;
}

/** A session found valid for a request: who it stands for, and its record. */
export interface ResolvedSession {
  record: ConsoleSessionRecord;
  caller: Caller;
  /** When the caller's own credential ends (the club token's expiry), if it does. */
  credentialEndsAt?: Date;
}

/** The last use is written at most this often (and more often when the idle limit is short). */
const TOUCH_RESOLUTION_MS = 60_000;

/**
 * Console sessions (docs/console-and-maps.md, Signing in to the console): sign-in exchanges an
 * operator API key or a club admin's token for a random cookie kept only as its hash; each use
 * checks the idle and absolute limits and the credential behind it again.
 */
@Injectable()
export class ConsoleSessionsService {
  constructor(
    private readonly sessions: ConsoleSessionsRepository,
    private readonly apiKeys: ApiKeysService,
    private readonly clubTokens: ClubTokensService,
    private readonly config: AppConfig,
    private readonly unitOfWork: UnitOfWork,
  ) {}

  /** Starts a session for a caller the guard has checked (an operator key, or an admin's token). */
  async start(caller: Caller): Promise<{ secret: string; view: ConsoleSessionView; maxAgeSeconds: number }> {
    const secret = newSessionSecret();
    const now = new Date();
    const expiresAt = new Date(now.getTime() + this.config.CONSOLE_SESSION_MAX_SECONDS * 1000);
    await this.unitOfWork.transaction((tx) =>
      this.sessions.create(tx, {
        sessionHash: hashSecret(secret),
        apiKeyId: caller.kind === 'apikey' ? caller.key.id : null,
        clubTokenId: caller.kind === 'club' ? caller.session.tokenId : null,
        createdAt: now,
        lastSeenAt: now,
        expiresAt,
      }),
    );
    const resolved = await this.resolve(secret);
    return { secret, view: this.view(secret, resolved), maxAgeSeconds: this.config.CONSOLE_SESSION_MAX_SECONDS };
  }

  /** The session behind a cookie, or 401 (and the row deleted) when it has ended for any reason. */
  async resolve(secret: string | undefined): Promise<ResolvedSession> {
    if (!isSessionSecret(secret)) {
      throw ApiError.unauthorized('auth.consoleSessionEnded');
    }
    const record = await this.sessions.getByHash(hashSecret(secret));
    if (!record) {
      throw ApiError.unauthorized('auth.consoleSessionEnded');
    }
    const now = Date.now();
    const idleMs = this.config.CONSOLE_SESSION_IDLE_SECONDS * 1000;
    const resolved = record.expiresAt.getTime() > now && record.lastSeenAt.getTime() + idleMs > now ? await this.callerOf(record) : undefined;
    if (!resolved) {
      await this.unitOfWork.transaction((tx) => this.sessions.delete(tx, record.id));
      throw ApiError.unauthorized('auth.consoleSessionEnded');
    }
    const resolution = Math.min(TOUCH_RESOLUTION_MS, idleMs / 4);
    if (now - record.lastSeenAt.getTime() >= resolution) {
      await this.unitOfWork.transaction((tx) => this.sessions.touch(tx, record.id, new Date(now), new Date(now - resolution)));
    }
    return { record, ...resolved };
  }

  /** The session behind a cookie, or null when it has ended (GET /console-session: no error for a page that is not signed in). */
  async find(secret: string): Promise<ResolvedSession | null> {
    try {
      return await this.resolve(secret);
    } catch (error) {
      if (error instanceof ApiError && error.getStatus() === 401) {
        return null;
      }
      throw error;
    }
  }

  /** What the console may know of its session (its CSRF token included). */
  view(secret: string, resolved: ResolvedSession): ConsoleSessionView {
    const { caller, record, credentialEndsAt } = resolved;
    const ends = credentialEndsAt && credentialEndsAt < record.expiresAt ? credentialEndsAt : record.expiresAt;
    return {
      kind: caller.kind === 'apikey' ? 'operator' : 'club-admin',
      name: caller.kind === 'apikey' ? caller.key.name : (caller.session.mcid ?? caller.session.playerUuid),
      uuid: caller.kind === 'club' ? caller.session.playerUuid : null,
      csrfToken: csrfTokenOf(secret),
      expiresAt: ends.toISOString(),
      idleTimeoutSeconds: this.config.CONSOLE_SESSION_IDLE_SECONDS,
    };
  }

  /** Sign-out: the row goes, and an admin's token with it (the console signed in with it and nobody else holds it). */
  async end(resolved: ResolvedSession): Promise<void> {
    await this.unitOfWork.transaction((tx) => this.sessions.delete(tx, resolved.record.id));
    if (resolved.caller.kind === 'club') {
      await this.clubTokens.logout(resolved.caller.session);
    }
  }

  /** Deletes every session past its absolute end or idle limit; returns how many. */
  purge(now = new Date()): Promise<number> {
    const idleBefore = new Date(now.getTime() - this.config.CONSOLE_SESSION_IDLE_SECONDS * 1000);
    return this.unitOfWork.transaction((tx) => this.sessions.deleteExpired(tx, now, idleBefore));
  }

  /** Who the session stands for while its credential still would be accepted; undefined when not. */
  private async callerOf(record: ConsoleSessionRecord): Promise<Omit<ResolvedSession, 'record'> | undefined> {
    if (record.apiKeyId !== null) {
      const key = await this.apiKeys.principalById(record.apiKeyId);
      return key?.scopes.includes('operator') ? { caller: { kind: 'apikey', key } } : undefined;
    }
    if (record.clubTokenId !== null) {
      const token = await this.clubTokens.authenticateTokenId(record.clubTokenId).catch((error: unknown) => {
        // Logged out, superseded, expired, or gone with its account: the session ends with it.
        if (error instanceof ApiError && error.getStatus() === 401) {
          return undefined;
        }
        throw error;
      });
      return token?.session.clubgroup === 'admin' ? { caller: { kind: 'club', session: token.session }, credentialEndsAt: token.expiresAt } : undefined;
    }
    return undefined;
  }
}
