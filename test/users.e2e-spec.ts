import { PlayersService } from '../src/players/players.service';
import { expectError, HttpResult, newPlayer, TestApp } from './support/test-app';

describe('user lookups and achievements (e2e)', () => {
  let app: TestApp;
  let key: string;

  const send = (path: string, body: unknown, method = 'POST'): Promise<HttpResult> => app.request(method, path, { body, headers: { 'x-api-key': key } });
  const logIn = async (player: { uuid: string; mcid: string }, loggedInAt: string, permission?: string): Promise<void> => {
    const result = await send('/game-server/logins', { logins: [{ ...player, loggedInAt, ...(permission ? { permission } : {}) }] });
    expect(result.status).toBe(200);
  };
  const chatIdFor = (seed: number): string => `9${String(seed).padStart(17, '0')}`;

  beforeAll(async () => {
    app = await TestApp.start();
    key = await app.createApiKey(['game-server']);
  });

  afterAll(async () => {
    await app.stop();
  });

  describe('GET /users', () => {
    it('returns the user object by uuid, chatid and mcid (case-insensitively)', async () => {
      const player = newPlayer();
      await logIn(player, '2020-01-01T00:00:00Z', 'default');
      await logIn(player, '2021-01-01T00:00:00Z', 'admin');
      const chatid = chatIdFor(Date.now());
      expect((await send(`/game-server/chat-links/${player.uuid}`, { chatid }, 'PUT')).status).toBe(200);
      const expected = { uuid: player.uuid, mcid: player.mcid, chatid, permission: 'admin', firstLogin: '2020-01-01T00:00:00.000Z', lastLogin: '2021-01-01T00:00:00.000Z' };

      const byUuid = await app.get('/users', { query: { uuid: player.uuid.toUpperCase() } });
      expect(byUuid.status).toBe(200);
      expect(byUuid.body).toEqual({ status: true, code: 200, version: 'test-build', data: expected });
      expect((await app.get('/users', { query: { chatid } })).body.data).toEqual(expected);
      expect((await app.get('/users', { query: { mcid: player.mcid.toUpperCase() } })).body.data).toEqual(expected);
      expect((await app.get('/v1/users', { query: { mcid: player.mcid } })).body.data).toEqual(expected);
    });

    it('answers 400 without an identifier and for malformed ones', async () => {
      expectError(await app.get('/users'), 400, 'invalid_request');
      expectError(await app.get('/users', { query: { uuid: 'abc' } }), 400, 'invalid_request');
      expectError(await app.get('/users', { query: { chatid: '123' } }), 400, 'invalid_request');
      expectError(await app.get('/users', { query: { mcid: 'has space' } }), 400, 'invalid_request');
      expectError(await app.get('/users?mcid=a&mcid=b'), 400, 'invalid_request');
    });

    it('uses uuid, then chatid, then mcid when several are given', async () => {
      const first = newPlayer();
      const second = newPlayer();
      await logIn(first, '2022-01-01T00:00:00Z');
      await logIn(second, '2022-01-01T00:00:00Z');
      const chatid = chatIdFor(Date.now() + 1);
      await send(`/game-server/chat-links/${second.uuid}`, { chatid }, 'PUT');
      expect((await app.get('/users', { query: { uuid: first.uuid, chatid, mcid: second.mcid } })).body.data).toMatchObject({ uuid: first.uuid });
      expect((await app.get('/users', { query: { chatid, mcid: first.mcid } })).body.data).toMatchObject({ uuid: second.uuid });
    });

    it('answers 404 for an unknown player and for a player known only from a user key', async () => {
      expectError(await app.get('/users', { query: { uuid: newPlayer().uuid } }), 404, 'not_found');
      expectError(await app.get('/users', { query: { mcid: 'nobody_here' } }), 404, 'not_found');
      const keyOnly = newPlayer();
      await app.issueUserKey(key, keyOnly.uuid, keyOnly.mcid);
      expectError(await app.get(`/users/${keyOnly.uuid}`), 404, 'not_found');
      expectError(await app.get(`/users/${keyOnly.mcid}`), 404, 'not_found');
      // The first login makes the player exist, and the login's name replaces the one the key recorded.
      await logIn({ ...keyOnly, mcid: 'KeyThenLogin' }, '2023-01-01T00:00:00Z');
      expect((await app.get(`/users/${keyOnly.uuid}`)).body.data).toMatchObject({ mcid: 'KeyThenLogin', firstLogin: '2023-01-01T00:00:00.000Z' });
    });
  });

  describe('GET /users/{x}', () => {
    it('reads a uuid, then 17-20 digits as a chat id, then a game id; anything else is 400', async () => {
      const player = newPlayer();
      await logIn(player, '2022-01-01T00:00:00Z');
      const chatid = chatIdFor(Date.now() + 2);
      await send(`/game-server/chat-links/${player.uuid}`, { chatid }, 'PUT');
      // A game id of digits only, shorter than a chat id, is still a game id.
      const digits = { uuid: newPlayer().uuid, mcid: String(Date.now()).slice(-12) };
      await logIn(digits, '2022-01-01T00:00:00Z');

      expect((await app.get(`/users/${player.uuid}`)).body.data).toMatchObject({ uuid: player.uuid });
      expect((await app.get(`/users/${chatid}`)).body.data).toMatchObject({ uuid: player.uuid });
      expect((await app.get(`/users/${player.mcid}`)).body.data).toMatchObject({ uuid: player.uuid });
      expect((await app.get(`/users/${digits.mcid}`)).body.data).toMatchObject({ uuid: digits.uuid });
      expect((await app.get(`/v1/users/${player.mcid.toUpperCase()}`)).body.data).toMatchObject({ uuid: player.uuid });
      expectError(await app.get('/users/not-a-valid-id!'), 400, 'invalid_request');
      expectError(await app.get('/users/abcdefghijklmnopq'), 400, 'invalid_request');
      expectError(await app.get(`/users/${'1'.repeat(21)}`), 400, 'invalid_request');
    });

    it('lets a query identifier win over the path', async () => {
      const pathPlayer = newPlayer();
      const queryPlayer = newPlayer();
      await logIn(pathPlayer, '2022-01-01T00:00:00Z');
      await logIn(queryPlayer, '2022-01-01T00:00:00Z');
      expect((await app.get(`/users/${pathPlayer.mcid}`, { query: { mcid: queryPlayer.mcid } })).body.data).toMatchObject({ uuid: queryPlayer.uuid });
      expect((await app.get(`/users/${pathPlayer.uuid}`, { query: { uuid: queryPlayer.uuid } })).body.data).toMatchObject({ uuid: queryPlayer.uuid });
      // The query wins even when the path alone would be unreadable.
      expect((await app.get('/users/@@@', { query: { uuid: queryPlayer.uuid } })).body.data).toMatchObject({ uuid: queryPlayer.uuid });
      expectError(await app.get(`/users/${pathPlayer.uuid}`, { query: { mcid: 'nobody_there' } }), 404, 'not_found');
    });

    it('never reads the fixed route names as game ids', async () => {
      const named = { uuid: newPlayer().uuid, mcid: 'achievements' };
      await logIn(named, '2022-01-01T00:00:00Z');
      expectError(await app.get('/users/achievements'), 400, 'invalid_request');
      expect((await app.get('/users', { query: { mcid: 'achievements' } })).body.data).toMatchObject({ uuid: named.uuid });
      expect((await app.get('/users/Achievements')).body.data).toMatchObject({ uuid: named.uuid });
      // The documented example: a player named `banlist` is found with ?mcid=banlist.
      const banlist = { uuid: newPlayer().uuid, mcid: 'banlist' };
      await logIn(banlist, '2022-01-01T00:00:00Z');
      expectError(await app.get('/users/banlist'), 400, 'invalid_request');
      expect((await app.get('/users', { query: { mcid: 'banlist' } })).body.data).toMatchObject({ uuid: banlist.uuid });
    });
  });

  describe('names that change hands', () => {
    it('resolves a game id to its current holder', async () => {
      const alice = newPlayer();
      const bob = newPlayer();
      const name = `Steve_${alice.uuid.slice(0, 6)}`;
      await logIn({ ...alice, mcid: name }, '2019-01-01T00:00:00Z');
      expect((await app.get(`/users/${name}`)).body.data).toMatchObject({ uuid: alice.uuid });

      // Alice renamed (we have not seen her since); Bob took the name and logged in later.
      await logIn({ ...bob, mcid: name }, '2021-06-01T00:00:00Z');
      expect((await app.get(`/users/${name.toLowerCase()}`)).body.data).toMatchObject({ uuid: bob.uuid, mcid: name });
      expect((await app.app.get(PlayersService).findByMcid(name))?.uuid).toBe(bob.uuid);

      // Alice comes back under her new name: she is found by it, and her old one stays Bob's.
      await logIn({ ...alice, mcid: 'AliceNew' }, '2022-01-01T00:00:00Z');
      expect((await app.get('/users/AliceNew')).body.data).toMatchObject({ uuid: alice.uuid, mcid: 'AliceNew' });
      expect((await app.get(`/users/${name}`)).body.data).toMatchObject({ uuid: bob.uuid });

      // A late report of an old login with the old name does not take the name back.
      await logIn({ ...alice, mcid: name }, '2019-06-01T00:00:00Z');
      expect((await app.get(`/users/${alice.uuid}`)).body.data).toMatchObject({ mcid: 'AliceNew', firstLogin: '2019-01-01T00:00:00.000Z' });
      expect((await app.get(`/users/${name}`)).body.data).toMatchObject({ uuid: bob.uuid });

      // Bob renames; nobody holds the old name any more.
      await logIn({ ...bob, mcid: 'BobNew' }, '2023-01-01T00:00:00Z');
      expectError(await app.get(`/users/${name}`), 404, 'not_found');
    });
  });

  describe('DATA_CUTOFF at lookup', () => {
    it('hides records before a cutoff raised after they were stored', async () => {
      const old = newPlayer();
      const both = newPlayer();
      await logIn(old, '2019-01-01T00:00:00Z');
      await logIn(both, '2019-01-01T00:00:00Z', 'old');
      await logIn(both, '2020-06-01T00:00:00Z', 'new');
      await logIn(both, '2021-01-01T00:00:00Z', 'newest');
      const later = await TestApp.start({ DATA_CUTOFF: '2020-01-01T00:00:00+09:00' }, { database: app.database, captcha: app.captcha });
      try {
        expectError(await later.get(`/users/${old.uuid}`), 404, 'not_found');
        expectError(await later.get(`/users/${old.mcid}`), 404, 'not_found');
        expect((await later.get(`/users/${both.uuid}`)).body.data).toMatchObject({
          permission: 'newest',
          firstLogin: '2020-06-01T00:00:00.000Z',
          lastLogin: '2021-01-01T00:00:00.000Z',
        });
        expectError(await later.get(`/users/achievements/${old.uuid}`), 404, 'not_found');
      } finally {
        await later.stop({ keepDatabase: true, keepCaptcha: true });
      }
      expect((await app.get(`/users/${old.uuid}`)).body.data).toMatchObject({ firstLogin: '2019-01-01T00:00:00.000Z' });
    });
  });

  describe('GET /users/achievements', () => {
    beforeAll(async () => {
      const defined = await send(
        '/game-server/achievements',
        {
          achievements: [
            { id: 1, title: 'First login', description: 'Log in once.' },
            { id: 2, title: 'Builder', description: 'Build a house.' },
            { id: 3, title: 'Secret', description: 'Hidden one.', hidden: true },
            { id: 4, title: 'Never', description: 'Nobody has this.' },
          ],
        },
        'PUT',
      );
      expect(defined.body).toMatchObject({ upserted: 4 });
    });

    it('lists unlocks oldest first, ties by id, with unlocked and total', async () => {
      const player = newPlayer();
      await logIn(player, '2022-01-01T00:00:00Z');
      const unlocks = [
        { uuid: player.uuid, achievementId: 3, unlockedAt: '2022-02-01T00:00:00Z' },
        { uuid: player.uuid, achievementId: 2, unlockedAt: '2022-02-01T00:00:00Z' },
        { uuid: player.uuid, achievementId: 1, unlockedAt: '2022-01-01T00:00:01+09:00' },
      ];
      expect((await send('/game-server/achievements/unlocks', { unlocks })).body).toMatchObject({ accepted: 3, skipped: 0 });
      const result = await app.get(`/users/achievements/${player.uuid.toUpperCase()}`);
      expect(result.status).toBe(200);
      expect(result.body).toEqual({
        status: true,
        code: 200,
        version: 'test-build',
        unlocked: 3,
        total: expect.any(Number),
        data: [
          { id: 1, title: 'First login', description: 'Log in once.', hidden: false, unlockedAt: '2021-12-31T15:00:01.000Z' },
          { id: 2, title: 'Builder', description: 'Build a house.', hidden: false, unlockedAt: '2022-02-01T00:00:00.000Z' },
          { id: 3, title: 'Secret', description: 'Hidden one.', hidden: true, unlockedAt: '2022-02-01T00:00:00.000Z' },
        ],
      });
      expect(result.body.total).toBeGreaterThanOrEqual(4);
      expect((await app.get('/users/achievements', { query: { uuid: player.uuid } })).body).toMatchObject({ unlocked: 3 });
    });

    it('answers 400 without a uuid or with a malformed one, 404 for an unknown player', async () => {
      expectError(await app.get('/users/achievements'), 400, 'invalid_request');
      expectError(await app.get('/users/achievements/Notch'), 400, 'invalid_request');
      expectError(await app.get(`/users/achievements/${newPlayer().uuid}`), 404, 'not_found');
    });

    it('lets a uuid query parameter win over the path', async () => {
      const player = newPlayer();
      await logIn(player, '2022-01-01T00:00:00Z');
      await send('/game-server/achievements/unlocks', { unlocks: [{ uuid: player.uuid, achievementId: 2, unlockedAt: '2022-03-01T00:00:00Z' }] });
      const result = await app.get(`/users/achievements/${newPlayer().uuid}`, { query: { uuid: player.uuid } });
      expect(result.body).toMatchObject({ unlocked: 1, data: [expect.objectContaining({ id: 2 })] });
    });

    it('keeps unlocks of a player not seen yet and shows them once the player logs in', async () => {
      const player = newPlayer();
      expect((await send('/game-server/achievements/unlocks', { unlocks: [{ uuid: player.uuid, achievementId: 1, unlockedAt: '2022-01-01T00:00:00Z' }] })).body).toMatchObject({
        accepted: 1,
      });
      expectError(await app.get(`/users/achievements/${player.uuid}`), 404, 'not_found');
      await logIn(player, '2022-01-02T00:00:00Z');
      expect((await app.get(`/users/achievements/${player.uuid}`)).body).toMatchObject({ unlocked: 1, data: [expect.objectContaining({ id: 1 })] });
    });

    it('reflects a changed definition in the listing', async () => {
      const player = newPlayer();
      await logIn(player, '2022-01-01T00:00:00Z');
      await send('/game-server/achievements', { achievements: [{ id: 50, title: 'Before', description: 'x' }] }, 'PUT');
      await send('/game-server/achievements/unlocks', { unlocks: [{ uuid: player.uuid, achievementId: 50, unlockedAt: '2022-03-01T00:00:00Z' }] });
      await send('/game-server/achievements', { achievements: [{ id: 50, title: 'After', description: 'y', hidden: true }] }, 'PUT');
      expect((await app.get(`/users/achievements/${player.uuid}`)).body.data).toEqual([
        { id: 50, title: 'After', description: 'y', hidden: true, unlockedAt: '2022-03-01T00:00:00.000Z' },
      ]);
    });
  });
});
