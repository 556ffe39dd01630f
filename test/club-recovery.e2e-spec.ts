import { expectError, newPlayer, registerClubUser, TestApp } from './support/test-app';

type Token = { usertoken: string; expiresAt: string };

/** Contract 13.3: password reset with an in-game user key, password change, account deletion. */
describe('club account recovery (e2e)', () => {
  let app: TestApp;
  let gameServerKey: string;

  beforeAll(async () => {
    app = await TestApp.start();
    gameServerKey = await app.createApiKey(['game-server']);
  });

  afterAll(async () => {
    await app.stop();
  });

  const me = (usertoken: string) => app.get('/club/@me', { query: { usertoken } });
  const signIn = (username: string, password: string) => app.post<Token>('/club/token', { username, password, recaptcha: 'pass' });
  const reset = (body: Record<string, unknown>) => app.post<Token>('/club/password/reset', { recaptcha: 'pass', ...body });
  const change = (body: Record<string, unknown>) => app.post<Token>('/club/password', { recaptcha: 'pass', ...body });
  const remove = (body: Record<string, unknown>) => app.post('/club/@me/delete', { recaptcha: 'pass', ...body });

  function expectToken(result: { status: number; body: Token }): string {
    expect(result.status).toBe(200);
    expect(result.body).toMatchObject({ status: true, code: 200, usertoken: expect.stringMatching(/^[A-Za-z0-9]{32}$/), expiresAt: expect.any(String) });
    return result.body.usertoken;
  }

  describe('POST /club/password/reset', () => {
    it('sets the new password with a new user key, spends the key and invalidates every older token', async () => {
      const user = await registerClubUser(app, gameServerKey, { password: 'old-password-1' });
      const second = expectToken(await signIn(user.mcid, 'old-password-1'));
      const userkey = await app.issueUserKey(gameServerKey, user.uuid, user.mcid);
      const fresh = expectToken(await reset({ userkey, password: 'new-password-1' }));
      expect((await me(fresh)).status).toBe(200);
      for (const old of [user.usertoken, second]) {
        expectError(await me(old), 401, 'unauthorized');
      }
      expectError(await signIn(user.mcid, 'old-password-1'), 401, 'unauthorized');
      expectToken(await signIn(user.mcid, 'new-password-1'));
      // The key is spent.
      const again = expectError(await reset({ userkey, password: 'third-password' }), 401, 'unauthorized');
      expect(again.body.message).toMatch(/already used/);
    });

    it('accepts verificationCode as an alias of userkey', async () => {
      const user = await registerClubUser(app, gameServerKey);
      const verificationCode = await app.issueUserKey(gameServerKey, user.uuid, user.mcid);
      expectToken(await reset({ verificationCode, password: 'alias-password' }));
    });

    it('answers 404 for a player without an account and leaves the key unspent', async () => {
      const player = newPlayer();
      const userkey = await app.issueUserKey(gameServerKey, player.uuid, player.mcid);
      const missing = expectError(await reset({ userkey, password: 'some-password' }), 404, 'not_found');
      expect(missing.body.message_ja).toBe('このユーザーキーのプレイヤーにはまだクラブのアカウントがありません。新規登録をしてください。');
      expect((await app.post('/club/register', { userkey, password: 'some-password', recaptcha: 'pass' })).status).toBe(201);
    });

    it('answers 401 for a wrong or missing key, 400 for a short password or a rejected CAPTCHA, and changes nothing', async () => {
      const user = await registerClubUser(app, gameServerKey, { password: 'kept-password' });
      expectError(await reset({ userkey: 'Wrongkeyxx', password: 'new-password-1' }), 401, 'unauthorized');
      expectError(await reset({ password: 'new-password-1' }), 401, 'unauthorized');
      const userkey = await app.issueUserKey(gameServerKey, user.uuid, user.mcid);
      expectError(await reset({ userkey, password: 'short' }), 400, 'invalid_request');
      expectError(await reset({ userkey, password: 'new-password-1', recaptcha: 'fail' }), 400, 'captcha_failed');
      expect((await me(user.usertoken)).status).toBe(200);
      expectToken(await signIn(user.mcid, 'kept-password'));
      // Refused requests left the key unspent.
      expectToken(await reset({ userkey, password: 'new-password-1' }));
    });
  });

  describe('POST /club/password', () => {
    it('changes the password with the current one and invalidates every older token', async () => {
      const user = await registerClubUser(app, gameServerKey, { password: 'current-pass' });
      const fresh = expectToken(await change({ usertoken: user.usertoken, password: 'current-pass', newPassword: 'changed-pass' }));
      expectError(await me(user.usertoken), 401, 'unauthorized');
      expect((await me(fresh)).status).toBe(200);
      expectError(await signIn(user.mcid, 'current-pass'), 401, 'unauthorized');
      expectToken(await signIn(user.uuid, 'changed-pass'));
    });

    it('answers 401 for a wrong current password and keeps the password and token', async () => {
      const user = await registerClubUser(app, gameServerKey, { password: 'current-pass' });
      const wrong = expectError(await change({ usertoken: user.usertoken, password: 'not-the-password', newPassword: 'changed-pass' }), 401, 'unauthorized');
      expect(wrong.body).toMatchObject({ message: 'The password is wrong.', message_ja: 'パスワードが間違っています。' });
      expect((await me(user.usertoken)).status).toBe(200);
      expectError(await signIn(user.mcid, 'changed-pass'), 401, 'unauthorized');
    });

    it('needs a token, a valid new password and the CAPTCHA', async () => {
      const user = await registerClubUser(app, gameServerKey, { password: 'current-pass' });
      expectError(await change({ password: 'current-pass', newPassword: 'changed-pass' }), 401, 'unauthorized');
      const short = expectError(await change({ usertoken: user.usertoken, password: 'current-pass', newPassword: 'short' }), 400, 'invalid_request');
      expect(short.body.details).toEqual([{ field: 'newPassword', message: 'newPassword must be 8 to 128 characters', message_ja: '新しいパスワードは8〜128文字で入力してください。' }]);
      expectError(await change({ usertoken: user.usertoken, password: 'current-pass', newPassword: 'changed-pass', recaptcha: 'fail' }), 400, 'captcha_failed');
      expectToken(await signIn(user.mcid, 'current-pass'));
    });
  });

  describe('POST /club/@me/delete', () => {
    it('deletes the account and its tokens, keeps the player, and lets the player register again with a new key', async () => {
      const user = await registerClubUser(app, gameServerKey, { password: 'delete-me-1' });
      const gameServer = { headers: { 'x-api-key': gameServerKey } };
      expect((await app.post('/game-server/logins', { logins: [{ uuid: user.uuid, mcid: user.mcid, loggedInAt: new Date().toISOString() }] }, gameServer)).status).toBe(200);
      const other = expectToken(await signIn(user.mcid, 'delete-me-1'));
      const deleted = await remove({ usertoken: other, password: 'delete-me-1' });
      expect(deleted.status).toBe(200);
      expect(deleted.body).toMatchObject({ status: true, code: 200 });
      expectError(await me(other), 401, 'unauthorized');
      expectError(await me(user.usertoken), 401, 'unauthorized');
      expectError(await signIn(user.mcid, 'delete-me-1'), 401, 'unauthorized');
      // The game's records of the player stay.
      expect((await app.get(`/users/${user.uuid}`)).status).toBe(200);
      const userkey = await app.issueUserKey(gameServerKey, user.uuid, user.mcid);
      const again = await app.post<Token>('/club/register', { userkey, password: 'second-life-1', recaptcha: 'pass' });
      expect(again.status).toBe(201);
      expect((await me(again.body.usertoken)).body).toMatchObject({ data: { uuid: user.uuid, nickname: null, clubgroup: 'default' } });
    });

    it('answers 401 for a wrong password and deletes nothing', async () => {
      const user = await registerClubUser(app, gameServerKey, { password: 'keep-me-123' });
      expectError(await remove({ usertoken: user.usertoken, password: 'wrong-password' }), 401, 'unauthorized');
      expectError(await remove({ usertoken: user.usertoken, password: 'keep-me-123', recaptcha: 'fail' }), 400, 'captcha_failed');
      expectError(await remove({ password: 'keep-me-123' }), 401, 'unauthorized');
      expect((await me(user.usertoken)).status).toBe(200);
      expectToken(await signIn(user.mcid, 'keep-me-123'));
    });
  });
});
