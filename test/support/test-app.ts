import { Writable } from 'node:stream';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { AddressInfo } from 'node:net';
import { DataSource } from 'typeorm';
import { createApp, type CreateAppOptions } from '../../src/app.factory';
import { ApiKeysService } from '../../src/api-keys/api-keys.service';
import type { ApiScope } from '../../src/api-keys/api-key.entity';
import { loadConfig } from '../../src/config/app-config';
import { ClubAccountsService } from '../../src/club/club-accounts.service';
import { FakeCaptcha } from './fake-captcha';
import { createTestDatabase, TestDatabase } from './test-database';

export interface HttpResult<T = Record<string, unknown>> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

export interface RequestOptions {
  query?: Record<string, string | number | boolean>;
  body?: unknown;
  /** Raw body text, sent as is (with `contentType`, or none). */
  raw?: string;
  contentType?: string | null;
  headers?: Record<string, string>;
}

/**
 * A running service on loopback with its own throwaway database and a fake CAPTCHA verifier.
 * One per test file: `const app = await TestApp.start()` … `await app.stop()`.
 */
export class TestApp {
  private constructor(
    readonly app: NestFastifyApplication,
    /** Every log line the service wrote, for asserting that no secret reaches the logs. */
    readonly logLines: string[],
    readonly baseUrl: string,
    readonly captcha: FakeCaptcha,
    readonly database: TestDatabase,
  ) {}

  static async start(
    env: Record<string, string> = {},
    shared?: { database?: TestDatabase; captcha?: FakeCaptcha },
    appOptions: Omit<CreateAppOptions, 'logStream'> = {},
  ): Promise<TestApp> {
    const captcha = shared?.captcha ?? new FakeCaptcha();
    const captchaUrl = shared?.captcha ? undefined : await captcha.start();
    const database = shared?.database ?? (await createTestDatabase());
    const config = loadConfig({
      NODE_ENV: 'test',
      LOG_LEVEL: 'info',
      DATABASE_URL: database.url,
      RECAPTCHA_SECRET: FakeCaptcha.SECRET,
      ...(captchaUrl ? { RECAPTCHA_VERIFY_URL: captchaUrl } : {}),
      RECAPTCHA_TIMEOUT_MS: '1000',
      RATE_LIMIT_ENABLED: 'false',
      APP_VERSION: 'test-build',
      ...env,
    });
    const lines: string[] = [];
    const logStream = new Writable({
      write(chunk: Buffer, _encoding, callback) {
        lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
        callback();
      },
    });
    const app = await createApp(config, { ...appOptions, logStream });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = app.getHttpServer().address() as AddressInfo;
    return new TestApp(app, lines, `http://127.0.0.1:${port}`, captcha, database);
  }

  get dataSource(): DataSource {
    return this.app.get(DataSource);
  }

  async stop(options: { keepDatabase?: boolean; keepCaptcha?: boolean } = {}): Promise<void> {
    await this.app.close();
    if (!options.keepCaptcha) {
      await this.captcha.stop();
    }
    if (!options.keepDatabase) {
      await this.database.drop();
    }
  }

  async request<T = Record<string, unknown>>(method: string, path: string, options: RequestOptions = {}): Promise<HttpResult<T>> {
    const url = new URL(path, this.baseUrl);
    for (const [name, value] of Object.entries(options.query ?? {})) {
      url.searchParams.append(name, String(value));
    }
    const headers: Record<string, string> = { ...(options.headers ?? {}) };
    let body: string | undefined;
    if (options.raw !== undefined) {
      body = options.raw;
      if (options.contentType) {
        headers['content-type'] = options.contentType;
      }
    } else if (options.body !== undefined) {
      body = JSON.stringify(options.body);
      headers['content-type'] = options.contentType ?? 'application/json';
    }
    const response = await fetch(url, { method, headers, body });
    const text = await response.text();
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = undefined;
    }
    return { status: response.status, headers: response.headers, body: parsed as T, text };
  }

  get<T = Record<string, unknown>>(path: string, options?: RequestOptions): Promise<HttpResult<T>> {
    return this.request<T>('GET', path, options);
  }

  post<T = Record<string, unknown>>(path: string, body?: unknown, options: RequestOptions = {}): Promise<HttpResult<T>> {
    return this.request<T>('POST', path, { ...options, body });
  }

  async createApiKey(scopes: ApiScope[], name = `key-${Math.random().toString(36).slice(2)}`): Promise<string> {
    const created = await this.app.get(ApiKeysService).create(name, scopes);
    return created.key;
  }

  /** Issues a user key through the game-server endpoint, as the game server would. */
  async issueUserKey(gameServerKey: string, uuid: string, mcid: string): Promise<string> {
    const result = await this.post<{ userkey: string }>('/game-server/userkeys', { uuid, mcid }, { headers: { 'x-api-key': gameServerKey } });
    if (result.status !== 201) {
      throw new Error(`userkey issue failed: ${result.status} ${result.text}`);
    }
    return result.body.userkey;
  }
}

const JAPANESE = /[\u3040-\u30ff\u4e00-\u9fff]/;

/** Asserts the error envelope, with `message_ja` on it and on every detail (docs/api.md, Requests and responses), and returns it. */
export function expectError(result: HttpResult, status: number, error: string): HttpResult {
  expect({ status: result.status, error: result.body?.error }).toEqual({ status, error });
  expect(result.body).toMatchObject({ status: false, code: status, version: expect.any(String), message: expect.any(String), message_ja: expect.stringMatching(JAPANESE) });
  for (const entry of (result.body.details ?? []) as Array<Record<string, unknown>>) {
    expect(entry).toMatchObject({ field: expect.any(String), message: expect.any(String), message_ja: expect.stringMatching(JAPANESE) });
  }
  return result;
}

export interface ClubUser {
  uuid: string;
  mcid: string;
  usertoken: string;
}

/** A registered club account (optionally a club admin) with a fresh token. */
export async function registerClubUser(app: TestApp, gameServerKey: string, options: { admin?: boolean; password?: string } = {}): Promise<ClubUser> {
  const player = newPlayer();
  const userkey = await app.issueUserKey(gameServerKey, player.uuid, player.mcid);
  const password = options.password ?? 'club-password-1';
  const registered = await app.post<{ usertoken: string }>('/club/register', { userkey, password, recaptcha: 'pass' });
  if (registered.status !== 201) {
    throw new Error(`register failed: ${registered.status} ${registered.text}`);
  }
  if (options.admin) {
    await app.app.get(ClubAccountsService).setGroup(player.uuid, 'admin');
  }
  return { ...player, usertoken: registered.body.usertoken };
}

let counter = 0;
/** A fresh random player (uuid and game id) per call. */
export function newPlayer(): { uuid: string; mcid: string } {
  counter += 1;
  const hex = [...crypto.getRandomValues(new Uint8Array(16))].map((byte) => byte.toString(16).padStart(2, '0')).join('');
  const uuid = `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
  return { uuid, mcid: `p${counter}_${hex.slice(0, 6)}` };
}
