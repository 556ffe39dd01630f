import { expectError, registerClubUser, TestApp } from './support/test-app';

/** Bounded queues (docs/reliability.md, "The database"): past the bound a 503 with Retry-After, never a growing queue. */
describe('overload (e2e)', () => {
  let app: TestApp;
  let gameServerKey: string;

  beforeAll(async () => {
    app = await TestApp.start({ PASSWORD_HASH_QUEUE_LIMIT: '1' });
    gameServerKey = await app.createApiKey(['game-server']);
  });

  afterAll(async () => {
    await app.stop();
  });

  it('refuses sign-ins past PASSWORD_HASH_QUEUE_LIMIT with 503, message_ja and Retry-After; the rest are answered as usual', async () => {
    const user = await registerClubUser(app, gameServerKey, { password: 'burst-password-1' });
    const burst = await Promise.all(
      Array.from({ length: 20 }, (_, index) =>
        app.post('/club/token', { username: user.mcid, password: index % 2 === 0 ? 'burst-password-1' : 'wrong-password-1', recaptcha: 'pass' }),
      ),
    );
    const refused = burst.filter((result) => result.status === 503);
    expect(refused.length).toBeGreaterThan(0);
    for (const result of refused) {
      expectError(result, 503, 'service_unavailable');
      expect(result.headers.get('retry-after')).toBe('1');
    }
    // Everything else got its real answer: a full queue is never taken for a wrong password.
    expect(burst.filter((result) => ![200, 401, 503].includes(result.status)).map((result) => result.text)).toEqual([]);
    // Once the burst is over, sign-ins work again.
    expect((await app.post('/club/token', { username: user.mcid, password: 'burst-password-1', recaptcha: 'pass' })).status).toBe(200);
  });
});
