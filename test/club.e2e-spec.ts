import { ClubAccountsService } from '../src/club/club-accounts.service';
import { AppConfig } from '../src/config/app-config';
import { expectError, newPlayer, registerClubUser, TestApp } from './support/test-app';

describe('club accounts (e2e)', () => {
  let app: TestApp;
  let gameServerKey: string;

  beforeAll(async () => {
    app = await TestApp.start();
    gameServerKey = await app.createApiKey(['game-server']);
  });

  afterAll(async () => {
    await app.stop();
  });

  const register = (body: Record<string, unknown>) => app.post<{ usertoken: string; expiresAt: string }>('/club/register', body);
  const me = (usertoken: string) => app.get<{ data: Record<string, unknown> }>('/club/@me', { query: { usertoken } });

  describe('POST /club/register', () => {
    it('registers the user key player and returns a token in the base response', async () => {
      const player = newPlayer();
      const userkey = await app.issueUserKey(gameServerKey, player.uuid, player.mcid);
      expect(userkey).toMatch(/^[A-Za-z]{10}$/);
      const result = await register({ userkey, password: 'hunter2hunter2', recaptcha: 'pass' });
      expect(result.status).toBe(201);
      expect(result.body).toEqual({
        status: true,
        code: 201,
        version: 'test-build',
        usertoken: expect.stringMatching(/^[A-Za-z0-9]{32}$/),
        expiresAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/),
      });
      const expiresIn = Date.parse(result.body.expiresAt) - Date.now();
      expect(expiresIn).toBeGreaterThan(3 * 3600 * 1000 - 60_000);
      expect(expiresIn).toBeLessThanOrEqual(3 * 3600 * 1000);
      const account = await me(result.body.usertoken);
      expect(account.status).toBe(200);
      expect(account.body.data).toEqual({
        uuid: player.uuid,
        mcid: player.mcid,
        chatid: null,
        nickname: null,
        clubgroup: 'default',
        permission: null,
        createdAt: expect.any(String),
      });
    });

    it('accepts verificationCode as an alias of userkey', async () => {
      const player = newPlayer();
      const verificationCode = await app.issueUserKey(gameServerKey, player.uuid, player.mcid);
      expect((await register({ verificationCode, password: 'long-password', recaptcha: 'pass' })).status).toBe(201);
    });

    it('lets exactly one of five parallel registers with one user key succeed', async () => {
      const player = newPlayer();
      const userkey = await app.issueUserKey(gameServerKey, player.uuid, player.mcid);
      const results = await Promise.all(Array.from({ length: 5 }, () => register({ userkey, password: 'parallel-pass', recaptcha: 'pass' })));
      const statuses = results.map((result) => result.status);
      expect(statuses.filter((status) => status === 201)).toHaveLength(1);
      expect(statuses.filter((status) => status !== 201).every((status) => status === 401 || status === 409)).toBe(true);
    });

    it('spends the user key: a second use is 401', async () => {
      const player = newPlayer();
      const userkey = await app.issueUserKey(gameServerKey, player.uuid, player.mcid);
      expect((await register({ userkey, password: 'long-password', recaptcha: 'pass' })).status).toBe(201);
      const again = expectError(await register({ userkey, password: 'long-password', recaptcha: 'pass' }), 401, 'unauthorized');
      expect(again.body.message).toMatch(/already used/);
    });

    it('answers 401 for a missing, malformed, unknown or replaced user key', async () => {
      expectError(await register({ password: 'long-password', recaptcha: 'pass' }), 401, 'unauthorized');
      expectError(await register({ userkey: 'abc', password: 'long-password', recaptcha: 'pass' }), 401, 'unauthorized');
      expectError(await register({ userkey: 'ZZZZZZZZZZ', password: 'long-password', recaptcha: 'pass' }), 401, 'unauthorized');
      const player = newPlayer();
      const older = await app.issueUserKey(gameServerKey, player.uuid, player.mcid);
      const newer = await app.issueUserKey(gameServerKey, player.uuid, player.mcid);
      expectError(await register({ userkey: older, password: 'long-password', recaptcha: 'pass' }), 401, 'unauthorized');
      expect((await register({ userkey: newer, password: 'long-password', recaptcha: 'pass' })).status).toBe(201);
    });

    it('compares user keys case-sensitively', async () => {
      const player = newPlayer();
      const userkey = await app.issueUserKey(gameServerKey, player.uuid, player.mcid);
      const flipped = [...userkey].map((c) => (c === c.toUpperCase() ? c.toLowerCase() : c.toUpperCase())).join('');
      expectError(await register({ userkey: flipped, password: 'long-password', recaptcha: 'pass' }), 401, 'unauthorized');
    });

    it('gives 409 when the player already has an account, and leaves the key unspent', async () => {
      const user = await registerClubUser(app, gameServerKey);
      const userkey = await app.issueUserKey(gameServerKey, user.uuid, user.mcid);
      expectError(await register({ userkey, password: 'long-password', recaptcha: 'pass' }), 409, 'conflict');
      // Unspent: the same key is judged again (409), not refused as used (401).
      expectError(await register({ userkey, password: 'long-password', recaptcha: 'pass' }), 409, 'conflict');
    });

    it('checks an optional username against the key player', async () => {
      const player = newPlayer();
      const userkey = await app.issueUserKey(gameServerKey, player.uuid, player.mcid);
      const other = newPlayer();
      const wrong = expectError(await register({ userkey, username: other.mcid, password: 'long-password', recaptcha: 'pass' }), 400, 'invalid_request');
      expect(wrong.body.details).toEqual([{ field: 'username', message: expect.any(String), message_ja: expect.any(String) }]);
      expect((await register({ userkey, username: player.mcid.toUpperCase(), password: 'long-password', recaptcha: 'pass' })).status).toBe(201);
    });

    it('requires a password of 8 to 128 characters and writes nothing otherwise', async () => {
      const player = newPlayer();
      const userkey = await app.issueUserKey(gameServerKey, player.uuid, player.mcid);
      expectError(await register({ userkey, password: 'short', recaptcha: 'pass' }), 400, 'invalid_request');
      expectError(await register({ userkey, password: 'x'.repeat(129), recaptcha: 'pass' }), 400, 'invalid_request');
      expectError(await register({ userkey, password: 12345678, recaptcha: 'pass' }), 400, 'invalid_request');
      expect((await register({ userkey, password: 'x'.repeat(128), recaptcha: 'pass' })).status).toBe(201);
    });
  });

  describe('CAPTCHA', () => {
    async function freshKey(): Promise<string> {
      const player = newPlayer();
      return app.issueUserKey(gameServerKey, player.uuid, player.mcid);
    }

    it('sends secret, response and remoteip to the verifier as a form', async () => {
      const userkey = await freshKey();
      await register({ userkey, password: 'long-password', recaptcha: 'pass-check-form' });
      expect(app.captcha.requests.find((form) => form.response === 'pass-check-form')).toEqual({
        secret: 'test-captcha-secret',
        response: 'pass-check-form',
        remoteip: '127.0.0.1',
      });
    });

    it('gives 400 invalid_request when recaptcha is missing', async () => {
      const result = expectError(await register({ userkey: await freshKey(), password: 'long-password' }), 400, 'invalid_request');
      expect(result.body.details).toEqual([{ field: 'recaptcha', message: expect.any(String), message_ja: expect.any(String) }]);
    });

    it('gives 400 captcha_failed for a rejected token or a low score, and the key stays unspent', async () => {
      const userkey = await freshKey();
      expectError(await register({ userkey, password: 'long-password', recaptcha: 'fail' }), 400, 'captcha_failed');
      expectError(await register({ userkey, password: 'long-password', recaptcha: 'low-score' }), 400, 'captcha_failed');
      expect((await register({ userkey, password: 'long-password', recaptcha: 'pass' })).status).toBe(201);
    });

    it('gives 503 when the verifier fails, does not answer in time or answers without end', async () => {
      const userkey = await freshKey();
      expectError(await register({ userkey, password: 'long-password', recaptcha: 'error-500' }), 503, 'service_unavailable');
      const started = Date.now();
      expectError(await register({ userkey, password: 'long-password', recaptcha: 'hang' }), 503, 'service_unavailable');
      expect(Date.now() - started).toBeLessThan(5000);
      // An answer that never ends is read only up to its bound (64 KiB), then the connection is cut.
      expectError(await register({ userkey, password: 'long-password', recaptcha: 'endless' }), 503, 'service_unavailable');
      // Unbounded, the service would have read on until the deadline (gigabytes on loopback).
      expect(app.captcha.endlessBytesSent).toBeLessThan(32 * 1024 * 1024);
      expect((await register({ userkey, password: 'long-password', recaptcha: 'pass' })).status).toBe(201);
    });

    it('checks the answer\'s hostname and action against RECAPTCHA_HOSTNAMES and RECAPTCHA_ACTIONS when set', async () => {
      const checked = await TestApp.start(
        { RECAPTCHA_HOSTNAMES: 'Club.Example.org,www.example.org', RECAPTCHA_ACTIONS: 'login,register', RECAPTCHA_VERIFY_URL: app.app.get(AppConfig).RECAPTCHA_VERIFY_URL },
        { database: app.database, captcha: app.captcha },
      );
      try {
        const userkey = await freshKey();
        const attempt = (recaptcha: string) => checked.post('/club/register', { userkey, password: 'long-password', recaptcha });
        expectError(await attempt('pass;hostname=evil.example'), 400, 'captcha_failed');
        expectError(await attempt('pass;action=nickname'), 400, 'captcha_failed');
        expectError(await attempt('pass;hostname='), 400, 'captcha_failed');
        expect((await attempt('pass;hostname=WWW.example.org;action=register')).status).toBe(201);
      } finally {
        await checked.stop({ keepDatabase: true, keepCaptcha: true });
      }
      // Unset (the default app): any hostname and action pass.
      expect((await register({ userkey: await freshKey(), password: 'long-password', recaptcha: 'pass;hostname=evil.example;action=x' })).status).toBe(201);
    });

    it('is required on sign-in and nickname too', async () => {
      const user = await registerClubUser(app, gameServerKey);
      expectError(await app.get('/club/token', { query: { username: user.mcid, password: 'club-password-1', recaptcha: 'fail' } }), 400, 'captcha_failed');
      expectError(await app.post('/club/nickname', { usertoken: user.usertoken, nickname: 'x', recaptcha: 'fail' }), 400, 'captcha_failed');
    });
  });

  describe('GET /club/token (sign in)', () => {
    it('signs in by game id (any case) or by uuid, from the query or a POST body', async () => {
      const user = await registerClubUser(app, gameServerKey, { password: 'sign-in-password' });
      const byMcid = await app.get<{ usertoken: string; expiresAt: string }>('/club/token', {
        query: { username: user.mcid.toUpperCase(), password: 'sign-in-password', recaptcha: 'pass' },
      });
      expect(byMcid.status).toBe(200);
      expect(byMcid.body).toEqual({ status: true, code: 200, version: 'test-build', usertoken: expect.stringMatching(/^[A-Za-z0-9]{32}$/), expiresAt: expect.any(String) });
      const byUuid = await app.post<{ usertoken: string }>('/club/token', { username: user.uuid.toUpperCase(), password: 'sign-in-password', recaptcha: 'pass' });
      expect(byUuid.status).toBe(200);
      expect((await me(byUuid.body.usertoken)).status).toBe(200);
    });

    it('answers a wrong password and an unknown user with the same 401', async () => {
      const user = await registerClubUser(app, gameServerKey);
      const wrong = await app.get('/club/token', { query: { username: user.mcid, password: 'not-the-password', recaptcha: 'pass' } });
      const unknown = await app.get('/club/token', { query: { username: 'nobody_here', password: 'not-the-password', recaptcha: 'pass' } });
      expectError(wrong, 401, 'unauthorized');
      expect(unknown.status).toBe(wrong.status);
      expect(unknown.body).toEqual(wrong.body);
    });
  });

  describe('user tokens', () => {
    it('supersedes older tokens when a new one is issued', async () => {
      const user = await registerClubUser(app, gameServerKey, { password: 'supersede-pass' });
      const next = await app.post<{ usertoken: string }>('/club/token', { username: user.mcid, password: 'supersede-pass', recaptcha: 'pass' });
      const old = expectError(await me(user.usertoken), 401, 'unauthorized');
      expect(old.body.message).toMatch(/superseded/);
      expect((await me(next.body.usertoken)).status).toBe(200);
    });

    it('invalidates a token on logout', async () => {
      const user = await registerClubUser(app, gameServerKey);
      const out = await app.post('/club/logout', { usertoken: user.usertoken });
      expect(out.status).toBe(200);
      expect(out.body).toEqual({ status: true, code: 200, version: 'test-build' });
      const after = expectError(await me(user.usertoken), 401, 'unauthorized');
      expect(after.body.message).toMatch(/logged out/);
      expectError(await app.post('/club/logout', { usertoken: user.usertoken }), 401, 'unauthorized');
    });

    it('accepts the token as a Bearer header', async () => {
      const user = await registerClubUser(app, gameServerKey);
      const result = await app.get('/club/@me', { headers: { authorization: `Bearer ${user.usertoken}` } });
      expect(result.status).toBe(200);
    });

    it('answers 401 for a missing, malformed or unknown token', async () => {
      expectError(await app.get('/club/@me'), 401, 'unauthorized');
      expectError(await me('short'), 401, 'unauthorized');
      const unknown = expectError(await me('A'.repeat(32)), 401, 'unauthorized');
      expect(unknown.body.message).toMatch(/invalid/);
    });

    it('shows the club group set from the command line', async () => {
      const user = await registerClubUser(app, gameServerKey);
      await app.app.get(ClubAccountsService).setGroup(user.mcid, 'admin');
      expect((await me(user.usertoken)).body.data.clubgroup).toBe('admin');
    });
  });

  describe('POST /club/nickname', () => {
    const setNickname = (usertoken: string, nickname: unknown) =>
      app.post<{ nickname?: string; error?: string }>('/club/nickname', { usertoken, nickname, recaptcha: 'pass' });

    it('stores the nickname without surrounding white space, controls and zero-width characters', async () => {
      const user = await registerClubUser(app, gameServerKey);
      const result = await setNickname(user.usertoken, '\u3000 \u200B Builder Taro\t\n\u3000');
      expect(result.status).toBe(200);
      expect(result.body).toEqual({ status: true, code: 200, version: 'test-build', nickname: 'Builder Taro' });
      expect((await me(user.usertoken)).body.data.nickname).toBe('Builder Taro');
    });

    it('keeps zero-width joiners inside (emoji) and counts characters, not code units', async () => {
      const user = await registerClubUser(app, gameServerKey);
      const family = '\u{1F468}\u200D\u{1F469}\u200D\u{1F467}';
      const result = await setNickname(user.usertoken, `${family}${'a'.repeat(31)}`);
      expect(result.status).toBe(200);
      expect(result.body.nickname).toBe(`${family}${'a'.repeat(31)}`);
    });

    it('rejects empty, too long, control characters inside, and non-strings, writing nothing', async () => {
      const user = await registerClubUser(app, gameServerKey);
      expect((await setNickname(user.usertoken, 'Keeper')).status).toBe(200);
      for (const bad of ['   ', '\u200B\u3000', 'a'.repeat(33), 'tab\tinside', 'nul\u0000inside', 42, null]) {
        const result = await setNickname(user.usertoken, bad);
        expect({ bad, status: result.status, error: result.body.error }).toEqual({ bad, status: 400, error: 'invalid_request' });
      }
      expect((await me(user.usertoken)).body.data.nickname).toBe('Keeper');
    });

    it('requires a valid token', async () => {
      expectError(await app.post('/club/nickname', { nickname: 'x', recaptcha: 'pass' }), 401, 'unauthorized');
    });
  });

  describe('secrets', () => {
    it('never writes passwords, tokens, keys or CAPTCHA tokens to the log or into responses', async () => {
      const password = 'Sup3rSecretPassw0rd';
      const player = newPlayer();
      const userkey = await app.issueUserKey(gameServerKey, player.uuid, player.mcid);
      const registered = await register({ userkey, password, recaptcha: 'pass-secret-token' });
      const signIn = await app.get<{ usertoken: string }>(`/club/token?username=${player.mcid}&password=${password}&recaptcha=pass-secret-token`);
      await app.get('/club/@me', { headers: { authorization: `Bearer ${signIn.body.usertoken}` } });
      await app.get(`/club/@me?usertoken=${signIn.body.usertoken}`);
      const logs = app.logLines.join('\n');
      expect(logs).toContain('/club/token?');
      for (const secret of [password, userkey, registered.body.usertoken, signIn.body.usertoken, 'pass-secret-token', gameServerKey]) {
        expect(logs).not.toContain(secret);
      }
      const account = await me(signIn.body.usertoken);
      expect(JSON.stringify(account.body)).not.toMatch(/argon2|password/i);
    });

    it('stores tokens, keys and passwords only as hashes', async () => {
      const player = newPlayer();
      const userkey = await app.issueUserKey(gameServerKey, player.uuid, player.mcid);
      const registered = await register({ userkey, password: 'stored-as-hash', recaptcha: 'pass' });
      const dump = JSON.stringify([
        await app.dataSource.query('SELECT * FROM club_tokens'),
        await app.dataSource.query('SELECT * FROM user_keys'),
        await app.dataSource.query('SELECT * FROM club_accounts'),
        await app.dataSource.query('SELECT * FROM api_keys'),
      ]);
      expect(dump).not.toContain(registered.body.usertoken);
      expect(dump).not.toContain(userkey);
      expect(dump).not.toContain('stored-as-hash');
      expect(dump).not.toContain(gameServerKey);
      expect(dump).toContain('$argon2id$');
    });
  });

  /** Password reset with an in-game user key, password change, account deletion. */
  describe('account recovery', () => {
    type Token = { usertoken: string; expiresAt: string };

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
});

describe('club tokens with short lifetimes (e2e)', () => {
  let app: TestApp;
  let gameServerKey: string;

  beforeAll(async () => {
    app = await TestApp.start({ CLUB_TOKEN_TTL_SECONDS: '1', USER_KEY_TTL_SECONDS: '1' });
    gameServerKey = await app.createApiKey(['game-server']);
  });

  afterAll(async () => {
    await app.stop();
  });

  it('rejects an expired user token and an expired user key with 401', async () => {
    const player = newPlayer();
    const userkey = await app.issueUserKey(gameServerKey, player.uuid, player.mcid);
    const registered = await app.post<{ usertoken: string }>('/club/register', { userkey, password: 'long-password', recaptcha: 'pass' });
    expect(registered.status).toBe(201);
    const other = newPlayer();
    const unusedKey = await app.issueUserKey(gameServerKey, other.uuid, other.mcid);
    await new Promise((resolve) => setTimeout(resolve, 1200));
    const expired = expectError(await app.get('/club/@me', { query: { usertoken: registered.body.usertoken } }), 401, 'unauthorized');
    expect(expired.body.message).toMatch(/expired/);
    const keyExpired = expectError(await app.post('/club/register', { userkey: unusedKey, password: 'long-password', recaptcha: 'pass' }), 401, 'unauthorized');
    expect(keyExpired.body.message).toMatch(/expired/);
  });
});

describe('CAPTCHA switched off (e2e)', () => {
  let app: TestApp;

  beforeAll(async () => {
    app = await TestApp.start({ RECAPTCHA_SECRET: '' });
  });

  afterAll(async () => {
    await app.stop();
  });

  it('warns at start and accepts any token', async () => {
    expect(app.logLines.join('\n')).toMatch(/RECAPTCHA_SECRET is not set/);
    const key = await app.createApiKey(['game-server']);
    const player = newPlayer();
    const userkey = await app.issueUserKey(key, player.uuid, player.mcid);
    expect((await app.post('/club/register', { userkey, password: 'long-password', recaptcha: 'anything' })).status).toBe(201);
    expect(app.captcha.requests).toHaveLength(0);
  });
});
