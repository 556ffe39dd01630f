import { UnitOfWork } from '../src/database/unit-of-work';
import { expectError, HttpResult, registerClubUser, TestApp } from './support/test-app';

/**
 * Requests racing each other on one account: every write goes through the unit of work, and a
 * request racing an account deletion gets the answer it would get a moment later, never a 500
 * (docs/reliability.md, "The database").
 */
describe('club account races (e2e)', () => {
  let app: TestApp;
  let gameServerKey: string;
  const PASSWORD = 'race-password-1';
  const ROUNDS = 8;

  beforeAll(async () => {
    app = await TestApp.start();
    gameServerKey = await app.createApiKey(['game-server']);
  });

  afterAll(async () => {
    await app.stop();
  });

  const me = (usertoken: string) => app.get('/club/@me', { query: { usertoken } });
  const remove = (usertoken: string) => app.post('/club/@me/delete', { usertoken, password: PASSWORD, recaptcha: 'pass' });

  /** 2xx in `ok`, or one of `refusals` in the error envelope: never a 5xx. */
  function expectAnswer(result: HttpResult, ok: number, refusals: Array<[number, string]>): void {
    if (result.status === ok) {
      return;
    }
    const refusal = refusals.find(([status]) => status === result.status);
    expect({ status: result.status, body: result.text }).toEqual({ status: refusal?.[0] ?? ok, body: expect.any(String) });
    expectError(result, refusal![0], refusal![1]);
  }

  it('keeps a logout that ran while another transaction was open and then rolled back', async () => {
    const user = await registerClubUser(app, gameServerKey, { password: PASSWORD });
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const failing = app.app
      .get(UnitOfWork)
      .transaction(async (tx) => {
        await tx.run('UPDATE players SET mcid = mcid WHERE uuid = ?', [user.uuid]);
        await held;
        throw new Error('rolled back on purpose');
      })
      .catch((error: unknown) => error);
    const logout = app.post('/club/logout', { usertoken: user.usertoken });
    // Time enough for the logout to reach the database while the transaction is still open.
    await new Promise((resolve) => setTimeout(resolve, 300));
    release();
    expect(await failing).toEqual(new Error('rolled back on purpose'));
    expect((await logout).status).toBe(200);
    const after = expectError(await me(user.usertoken), 401, 'unauthorized');
    expect(after.body.message).toMatch(/logged out/i);
  });

  it(`answers a sign-in racing the account's deletion with 200 or 401, never 500 (${ROUNDS} rounds)`, async () => {
    for (let round = 0; round < ROUNDS; round += 1) {
      const user = await registerClubUser(app, gameServerKey, { password: PASSWORD });
      const [deleted, signedIn] = await Promise.all([remove(user.usertoken), app.post('/club/token', { username: user.mcid, password: PASSWORD, recaptcha: 'pass' })]);
      // A sign-in first supersedes the deleting token (401); a deletion first leaves no account (401).
      expectAnswer(deleted, 200, [[401, 'unauthorized']]);
      expectAnswer(signedIn, 200, [[401, 'unauthorized']]);
    }
  });

  it(`answers a password reset racing the account's deletion with 200 or 404 (key unspent), never 500 (${ROUNDS} rounds)`, async () => {
    for (let round = 0; round < ROUNDS; round += 1) {
      const user = await registerClubUser(app, gameServerKey, { password: PASSWORD });
      const userkey = await app.issueUserKey(gameServerKey, user.uuid, user.mcid);
      const [deleted, reset] = await Promise.all([remove(user.usertoken), app.post('/club/password/reset', { userkey, password: 'after-reset-1', recaptcha: 'pass' })]);
      expectAnswer(deleted, 200, [[401, 'unauthorized']]);
      expectAnswer(reset, 200, [[404, 'not_found']]);
      if (reset.status === 404) {
        // Nothing was written: the key is still good for a new registration.
        expect((await app.post('/club/register', { userkey, password: 'second-life-1', recaptcha: 'pass' })).status).toBe(201);
      }
    }
  });

  it(`answers a password change racing the account's deletion with 200 or 401, never 500 (${ROUNDS} rounds)`, async () => {
    for (let round = 0; round < ROUNDS; round += 1) {
      const user = await registerClubUser(app, gameServerKey, { password: PASSWORD });
      const [deleted, changed] = await Promise.all([
        remove(user.usertoken),
        app.post('/club/password', { usertoken: user.usertoken, password: PASSWORD, newPassword: 'changed-password-1', recaptcha: 'pass' }),
      ]);
      expectAnswer(deleted, 200, [[401, 'unauthorized']]);
      expectAnswer(changed, 200, [[401, 'unauthorized']]);
    }
  });

  it(`answers a nickname change racing the account's deletion with 200 or 401, never 500 or a 200 for nothing (${ROUNDS} rounds)`, async () => {
    for (let round = 0; round < ROUNDS; round += 1) {
      const user = await registerClubUser(app, gameServerKey, { password: PASSWORD });
      const [deleted, renamed] = await Promise.all([remove(user.usertoken), app.post('/club/nickname', { usertoken: user.usertoken, nickname: `n${round}`, recaptcha: 'pass' })]);
      expectAnswer(deleted, 200, [[401, 'unauthorized']]);
      expectAnswer(renamed, 200, [[401, 'unauthorized']]);
    }
  });

  it('answers 401 to a nickname change for an account deleted after the request was authenticated', async () => {
    const user = await registerClubUser(app, gameServerKey, { password: PASSWORD });
    // The deletion is written (not yet committed) before the nickname request arrives and commits
    // after it was authenticated: the update waits in the write queue (SQLite) or for the row lock
    // (MySQL), then finds no account.
    const unitOfWork = app.app.get(UnitOfWork);
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let written!: () => void;
    const deletionWritten = new Promise<void>((resolve) => (written = resolve));
    const deleting = unitOfWork.transaction(async (tx) => {
      await tx.run('UPDATE club_accounts SET current_token_id = NULL WHERE player_uuid = ?', [user.uuid]);
      await tx.run('DELETE FROM club_tokens WHERE account_id IN (SELECT id FROM club_accounts WHERE player_uuid = ?)', [user.uuid]);
      await tx.run('DELETE FROM club_accounts WHERE player_uuid = ?', [user.uuid]);
      written();
      await held;
    });
    await deletionWritten;
    const renamed = app.post('/club/nickname', { usertoken: user.usertoken, nickname: 'ghost', recaptcha: 'pass' });
    await new Promise((resolve) => setTimeout(resolve, 300));
    release();
    await deleting;
    expectError(await renamed, 401, 'unauthorized');
  });
});
