import { FakeCaptcha } from '../support/fake-captcha';
import { TcpProxy } from '../support/tcp-proxy';
import { expectError, registerClubUser, TestApp, type ClubUser, type HttpResult } from '../support/test-app';
import { duringFault, FAULTS, FaultTable, timeToRecover } from './fault-table';

const CAPTCHA_TIMEOUT_MS = 1000;
/** The answer's deadline: the provider's timeout plus room for a loaded machine. */
const BOUND_MS = CAPTCHA_TIMEOUT_MS + 2500;

/**
 * The CAPTCHA provider behind a TCP proxy (docs/reliability.md, "Outgoing calls, Redis and the
 * server's timeouts"): whatever it does, a sign-in answers within the deadline, 503 with
 * message_ja and Retry-After when it cannot be verified, and works again as soon as the provider does.
 */
describe('faults: the CAPTCHA provider', () => {
  const captcha = new FakeCaptcha();
  const table = new FaultTable();
  let proxy: TcpProxy;
  let app: TestApp;
  let user: ClubUser;
  /** Tokens the service handed out (acknowledged writes); a sign-in supersedes the one before, so the latest must work. */
  const issued: string[] = [];

  beforeAll(async () => {
    const target = new URL(await captcha.start());
    proxy = new TcpProxy('127.0.0.1', Number(target.port));
    const proxyPort = await proxy.start();
    app = await TestApp.start({ RECAPTCHA_VERIFY_URL: `http://127.0.0.1:${proxyPort}${target.pathname}`, RECAPTCHA_TIMEOUT_MS: String(CAPTCHA_TIMEOUT_MS) }, { captcha });
    user = await registerClubUser(app, await app.createApiKey(['game-server']));
  });

  afterAll(async () => {
    table.print('Fault table: CAPTCHA provider (sign-in, POST /club/token)');
    await app?.stop();
    await proxy?.stop();
  });

  async function signIn(): Promise<HttpResult> {
    const result = await app.post<{ usertoken?: string }>('/club/token', { username: user.mcid, password: 'club-password-1', recaptcha: 'pass' });
    if (result.status === 200 && result.body.usertoken) {
      issued.push(result.body.usertoken);
    }
    return result;
  }

  it.each(FAULTS)('%s: 503 with message_ja and Retry-After within the deadline, nothing lost, recovers by itself', async (fault) => {
    const results = await duringFault(proxy, fault, CAPTCHA_TIMEOUT_MS + 500, signIn);
    for (const { value, ms } of results) {
      expect(ms).toBeLessThan(BOUND_MS);
      expectError(value, 503, 'service_unavailable');
      expect(value.headers.get('retry-after')).toBe('5');
    }
    const recoveryMs = await timeToRecover(async () => (await signIn()).status === 200);
    const latest = issued[issued.length - 1];
    const writesLost = (await app.get('/club/@me', { headers: { authorization: `Bearer ${latest}` } })).status === 200 ? 0 : 1;
    expect(writesLost).toBe(0);
    table.add({
      dependency: 'CAPTCHA',
      fault,
      answer: [...new Set(results.map(({ value }) => value.status))].join('/'),
      slowestMs: Math.max(...results.map(({ ms }) => ms)),
      boundMs: BOUND_MS,
      writesLost,
      recoveryMs,
    });
  });
});
