import { Achievement } from '../src/users/achievement.entity';
import { AchievementUnlock } from '../src/users/achievement-unlock.entity';
import { LoginRecord } from '../src/users/login-record.entity';
import { expectError, HttpResult, newPlayer, TestApp } from './support/test-app';

interface Login {
  uuid: string;
  mcid: string;
  loggedInAt: string;
  permission?: string | null;
}

describe('game-server ingest (e2e)', () => {
  let app: TestApp;
  let key: string;
  let operatorKey: string;

  const asServer = { headers: {} as Record<string, string> };
  const postLogins = (logins: unknown[]): Promise<HttpResult> => app.post('/game-server/logins', { logins }, asServer);
  const putChatLink = (uuid: string, chatid: string): Promise<HttpResult> => app.request('PUT', `/game-server/chat-links/${uuid}`, { body: { chatid }, ...asServer });
  const defineAchievements = (achievements: unknown[]): Promise<HttpResult> => app.request('PUT', '/game-server/achievements', { body: { achievements }, ...asServer });
  const postUnlocks = (unlocks: unknown[]): Promise<HttpResult> => app.post('/game-server/achievements/unlocks', { unlocks }, asServer);
  const login = (player: { uuid: string; mcid: string }, loggedInAt: string, permission?: string): Login => ({ ...player, loggedInAt, ...(permission ? { permission } : {}) });

  beforeAll(async () => {
    app = await TestApp.start();
    key = await app.createApiKey(['game-server']);
    operatorKey = await app.createApiKey(['operator']);
    asServer.headers = { 'x-api-key': key };
  });

  afterAll(async () => {
    await app.stop();
  });

  describe('credentials', () => {
    const player = newPlayer();
    const routes: Array<[string, string, unknown]> = [
      ['POST', '/game-server/logins', { logins: [login(player, '2024-01-01T00:00:00Z')] }],
      ['PUT', `/game-server/chat-links/${player.uuid}`, { chatid: '123456789012345678' }],
      ['DELETE', `/game-server/chat-links/${player.uuid}`, undefined],
      ['PUT', '/game-server/achievements', { achievements: [{ id: 1, title: 't', description: 'd' }] }],
      ['POST', '/game-server/achievements/unlocks', { unlocks: [{ uuid: player.uuid, achievementId: 1, unlockedAt: '2024-01-01T00:00:00Z' }] }],
    ];

    it.each(routes)('%s %s answers 401 without a key', async (method, path, body) => {
      expectError(await app.request(method, path, { body }), 401, 'unauthorized');
    });

    it.each(routes)('%s %s answers 403 with an operator-only key', async (method, path, body) => {
      expectError(await app.request(method, path, { body, headers: { 'x-api-key': operatorKey } }), 403, 'forbidden');
    });

    it('stored nothing for the refused requests', async () => {
      expectError(await app.get(`/users/${player.uuid}`), 404, 'not_found');
    });
  });

  describe('POST /game-server/logins', () => {
    it('stores a batch, keeps the latest name and permission, and skips an exact re-send', async () => {
      const player = newPlayer();
      const batch = [login(player, '2024-05-01T10:00:00.000Z', 'default'), login({ ...player, mcid: 'Renamed_1' }, '2024-06-01T10:00:00.000Z', 'vip'), login(player, '2024-04-01T10:00:00+09:00')];
      const first = await postLogins(batch);
      expect(first.status).toBe(200);
      expect(first.body).toEqual({ status: true, code: 200, version: 'test-build', accepted: 3, skipped: 0 });

      const again = await postLogins(batch);
      expect(again.body).toMatchObject({ accepted: 0, skipped: 3 });

      const user = await app.get(`/users/${player.uuid}`);
      expect(user.body.data).toEqual({
        uuid: player.uuid,
        mcid: 'Renamed_1',
        chatid: null,
        permission: 'vip',
        firstLogin: '2024-04-01T01:00:00.000Z',
        lastLogin: '2024-06-01T10:00:00.000Z',
      });
    });

    it('applies DATA_CUTOFF (inclusive) at ingest', async () => {
      const player = newPlayer();
      // Default cutoff: 2018-03-20T00:00:00+09:00 = 2018-03-19T15:00:00Z.
      const result = await postLogins([login(player, '2018-03-19T14:59:59.999Z'), login(player, '2018-03-19T15:00:00.000Z'), login(player, '2018-02-17T12:00:00Z')]);
      expect(result.body).toMatchObject({ accepted: 1, skipped: 2 });
      const user = await app.get('/users', { query: { uuid: player.uuid } });
      expect(user.body.data).toMatchObject({ firstLogin: '2018-03-19T15:00:00.000Z', lastLogin: '2018-03-19T15:00:00.000Z' });

      const early = newPlayer();
      expect((await postLogins([login(early, '2018-01-01T00:00:00Z')])).body).toMatchObject({ accepted: 0, skipped: 1 });
      expectError(await app.get(`/users/${early.uuid}`), 404, 'not_found');
    });

    it('counts repeats inside one batch as skipped, the first one winning', async () => {
      const player = newPlayer();
      const result = await postLogins([login(player, '2024-01-01T00:00:00Z', 'first'), login({ ...player, uuid: player.uuid.toUpperCase() }, '2024-01-01T00:00:00.000Z', 'second')]);
      expect(result.body).toMatchObject({ accepted: 1, skipped: 1 });
      expect((await app.get(`/users/${player.uuid}`)).body.data).toMatchObject({ permission: 'first' });
    });

    it('does not let an older record overwrite the latest name', async () => {
      const player = newPlayer();
      await postLogins([login({ ...player, mcid: 'NewName_x' }, '2024-03-01T00:00:00Z', 'vip')]);
      expect((await postLogins([login(player, '2022-01-01T00:00:00Z', 'default')])).body).toMatchObject({ accepted: 1 });
      expect((await app.get(`/users/${player.uuid}`)).body.data).toMatchObject({ mcid: 'NewName_x', permission: 'vip', firstLogin: '2022-01-01T00:00:00.000Z' });
    });

    it('rejects the whole batch when one item is invalid, naming it', async () => {
      const good = newPlayer();
      const result = await postLogins([login(good, '2024-01-01T00:00:00Z'), { uuid: 'nope', mcid: 'x', loggedInAt: '2024-01-01T00:00:00Z' }]);
      expectError(result, 400, 'invalid_request');
      expect(result.body.details).toEqual(expect.arrayContaining([expect.objectContaining({ field: 'logins.1.uuid' })]));
      expectError(await app.get(`/users/${good.uuid}`), 404, 'not_found');
    });

    it.each([
      ['a time without a zone', '2024-01-01T00:00:00'],
      ['a date that does not exist', '2024-02-30T00:00:00Z'],
      ['a number', 1704067200000],
    ])('rejects loggedInAt as %s', async (_label, loggedInAt) => {
      const result = await postLogins([{ ...newPlayer(), loggedInAt }]);
      expectError(result, 400, 'invalid_request');
      expect(result.body.details).toEqual([expect.objectContaining({ field: 'logins.0.loggedInAt' })]);
    });

    it('takes 1 to 1000 items', async () => {
      expectError(await postLogins([]), 400, 'invalid_request');
      expectError(await app.post('/game-server/logins', {}, asServer), 400, 'invalid_request');
      const player = newPlayer();
      const base = Date.parse('2023-01-01T00:00:00Z');
      const full = Array.from({ length: 1000 }, (_, index) => login(player, new Date(base + index * 60_000).toISOString()));
      expect((await postLogins(full)).body).toMatchObject({ accepted: 1000, skipped: 0 });
      expectError(await postLogins([...full, login(player, '2024-01-01T00:00:00Z')]), 400, 'invalid_request');
      expect((await app.get(`/users/${player.uuid}`)).body.data).toMatchObject({ lastLogin: new Date(base + 999 * 60_000).toISOString() });
    });

    it('accepts the JSON text the form content type carries, and /v1', async () => {
      const player = newPlayer();
      const result = await app.request('POST', '/v1/game-server/logins', {
        raw: JSON.stringify({ logins: [login(player, '2024-01-01T00:00:00Z')] }),
        contentType: 'application/x-www-form-urlencoded',
        ...asServer,
      });
      expect(result.body).toMatchObject({ status: true, code: 200, accepted: 1 });
    });

    it('keeps concurrent batches for one player consistent', async () => {
      const player = newPlayer();
      const results = await Promise.all(
        Array.from({ length: 6 }, (_, index) => postLogins([login({ ...player, mcid: `Name_${index}` }, `2024-0${index + 1}-01T00:00:00Z`, `group${index}`)])),
      );
      expect(results.map((result) => result.status)).toEqual([200, 200, 200, 200, 200, 200]);
      expect((await app.get(`/users/${player.uuid}`)).body.data).toMatchObject({
        mcid: 'Name_5',
        permission: 'group5',
        firstLogin: '2024-01-01T00:00:00.000Z',
        lastLogin: '2024-06-01T00:00:00.000Z',
      });
    });
  });

  describe('chat links', () => {
    it('links, finds by chat id, refuses another player the same id, and unlinks', async () => {
      const alice = newPlayer();
      const bob = newPlayer();
      await postLogins([login(alice, '2024-01-01T00:00:00Z'), login(bob, '2024-01-01T00:00:00Z')]);
      const chatid = `1${String(Date.now()).padStart(17, '0')}`;

      const linked = await putChatLink(alice.uuid, chatid);
      expect(linked.status).toBe(200);
      expect(linked.body).toMatchObject({ status: true, code: 200, uuid: alice.uuid, chatid });
      expect((await putChatLink(alice.uuid.toUpperCase(), chatid)).status).toBe(200);
      expect((await app.get(`/users/${chatid}`)).body.data).toMatchObject({ uuid: alice.uuid, chatid });

      const taken = expectError(await putChatLink(bob.uuid, chatid), 409, 'conflict');
      expect(taken.body.details).toEqual([expect.objectContaining({ field: 'chatid' })]);
      expect((await app.get(`/users/${bob.uuid}`)).body.data).toMatchObject({ chatid: null });

      const unlinked = await app.request('DELETE', `/game-server/chat-links/${alice.uuid}`, asServer);
      expect(unlinked.body).toMatchObject({ status: true, code: 200, uuid: alice.uuid, chatid: null });
      expectError(await app.get('/users', { query: { chatid } }), 404, 'not_found');

      expect((await putChatLink(bob.uuid, chatid)).status).toBe(200);
      expect((await app.get(`/users/${chatid}`)).body.data).toMatchObject({ uuid: bob.uuid });
    });

    it('lets exactly one of two players racing for a chat id have it', async () => {
      const players = [newPlayer(), newPlayer()];
      await postLogins(players.map((player) => login(player, '2024-01-01T00:00:00Z')));
      const chatid = `2${String(Date.now()).padStart(17, '0')}`;
      const results = await Promise.all(players.map((player) => putChatLink(player.uuid, chatid)));
      expect(results.map((result) => result.status).sort()).toEqual([200, 409]);
    });

    it('answers 404 for an unknown player and 400 for bad input', async () => {
      const stranger = newPlayer();
      expectError(await putChatLink(stranger.uuid, '123456789012345678'), 404, 'not_found');
      expectError(await app.request('DELETE', `/game-server/chat-links/${stranger.uuid}`, asServer), 404, 'not_found');
      const player = newPlayer();
      await postLogins([login(player, '2024-01-01T00:00:00Z')]);
      expectError(await putChatLink(player.uuid, '12345'), 400, 'invalid_request');
      expectError(await putChatLink('not-a-uuid', '123456789012345678'), 400, 'invalid_request');
      expectError(await app.request('PUT', `/game-server/chat-links/${player.uuid}`, { body: {}, ...asServer }), 400, 'invalid_request');
    });
  });

  describe('achievements', () => {
    it('upserts definitions by id', async () => {
      const result = await defineAchievements([
        { id: 901, title: 'Old title', description: 'first' },
        { id: 902, title: 'Secret', description: '', hidden: true },
      ]);
      expect(result.body).toEqual({ status: true, code: 200, version: 'test-build', upserted: 2 });
      expect((await defineAchievements([{ id: 901, title: 'New title', description: 'second', hidden: 'false' }])).body).toMatchObject({ upserted: 1 });
      expectError(await defineAchievements([{ id: 903, title: 'a', description: '' }, { id: 903, title: 'b', description: '' }]), 400, 'invalid_request');
      expectError(await defineAchievements([{ id: 0, title: 'zero', description: '' }]), 400, 'invalid_request');
      expectError(await defineAchievements([{ id: 904, title: '  ', description: '' }]), 400, 'invalid_request');
    });

    it('rejects a batch with an unknown achievement id and stores none of it', async () => {
      await defineAchievements([{ id: 911, title: 'Known', description: 'd' }]);
      const player = newPlayer();
      await postLogins([login(player, '2024-01-01T00:00:00Z')]);
      const result = await postUnlocks([
        { uuid: player.uuid, achievementId: 911, unlockedAt: '2024-01-02T00:00:00Z' },
        { uuid: player.uuid, achievementId: 999_999, unlockedAt: '2024-01-02T00:00:00Z' },
      ]);
      expectError(result, 400, 'invalid_request');
      expect(result.body.message).toContain('999999');
      expect((await app.get(`/users/achievements/${player.uuid}`)).body).toMatchObject({ data: [], unlocked: 0 });
    });

    it('skips repeated unlocks and keeps the first time', async () => {
      await defineAchievements([{ id: 921, title: 'Repeat', description: 'd' }]);
      const player = newPlayer();
      await postLogins([login(player, '2024-01-01T00:00:00Z')]);
      const unlock = { uuid: player.uuid, achievementId: 921, unlockedAt: '2024-01-02T00:00:00Z' };
      expect((await postUnlocks([unlock, { ...unlock, unlockedAt: '2024-01-03T00:00:00Z' }])).body).toMatchObject({ accepted: 1, skipped: 1 });
      expect((await postUnlocks([unlock])).body).toMatchObject({ accepted: 0, skipped: 1 });
      expect((await app.get(`/users/achievements/${player.uuid}`)).body.data).toEqual([
        { id: 921, title: 'Repeat', description: 'd', hidden: false, unlockedAt: '2024-01-02T00:00:00.000Z' },
      ]);
    });

    it('validates unlock batches', async () => {
      expectError(await postUnlocks([]), 400, 'invalid_request');
      const result = await postUnlocks([{ uuid: newPlayer().uuid, achievementId: 'x', unlockedAt: '2024-01-01T00:00:00Z' }]);
      expectError(result, 400, 'invalid_request');
      expect(result.body.details).toEqual([expect.objectContaining({ field: 'unlocks.0.achievementId' })]);
    });
  });

  /**
   * Malformed batches used to answer 500 (issue: `{"logins":[[]]}`, `{"achievements":[[]]}`, an
   * achievement id of 1e308 on both databases, one of 2^31 on MariaDB). Each is a 400 in the
   * envelope naming the element, and nothing of the batch is stored, not even its valid items.
   */
  describe('malformed batches', () => {
    async function stored(): Promise<{ logins: number; achievements: number; unlocks: number }> {
      return {
        logins: await app.dataSource.getRepository(LoginRecord).count(),
        achievements: await app.dataSource.getRepository(Achievement).count(),
        unlocks: await app.dataSource.getRepository(AchievementUnlock).count(),
      };
    }

    it.each([
      ['[]', []],
      ['[[]]', [[]]],
      ['[1, 2]', [1, 2]],
      ['null', null],
      ['a string', 'x'],
    ])('refuses %s where a batch expects an object, naming the element, storing nothing', async (_label, bad) => {
      await defineAchievements([{ id: 931, title: 'Shape', description: 'd' }]);
      const before = await stored();
      const player = newPlayer();
      const batches: Array<[string, () => Promise<HttpResult>]> = [
        ['logins', () => postLogins([login(player, '2024-01-01T00:00:00Z'), bad])],
        ['achievements', () => defineAchievements([{ id: 932, title: 'Beside', description: 'd' }, bad])],
        ['unlocks', () => postUnlocks([{ uuid: player.uuid, achievementId: 931, unlockedAt: '2024-01-02T00:00:00Z' }, bad])],
      ];
      for (const [name, send] of batches) {
        const result = expectError(await send(), 400, 'invalid_request');
        expect(result.body.details).toEqual([expect.objectContaining({ field: `${name}.1`, message: expect.stringContaining('must be an object') })]);
        expect((result.body.details as Array<{ message_ja: string }>)[0].message_ja).toContain('2件目はオブジェクトで指定してください');
      }
      expect(await stored()).toEqual(before);
      expectError(await app.get(`/users/${player.uuid}`), 404, 'not_found');
    });

    it('names every element that is not an object', async () => {
      const result = expectError(await postLogins([[], login(newPlayer(), '2024-01-01T00:00:00Z'), [[]], 5]), 400, 'invalid_request');
      expect((result.body.details as Array<{ field: string }>).map((entry) => entry.field)).toEqual(['logins.0', 'logins.2', 'logins.3']);
    });

    it.each([
      ['2^31', 2 ** 31],
      ['2^53', 2 ** 53],
      ['1e308', 1e308],
    ])('refuses an achievement id of %s (past what an integer column holds on either database), storing nothing', async (_label, id) => {
      const before = await stored();
      const player = newPlayer();
      const definitions = expectError(await defineAchievements([{ id: 941, title: 'Fine', description: 'd' }, { id, title: 'Huge', description: 'd' }]), 400, 'invalid_request');
      expect(definitions.body.details).toEqual([expect.objectContaining({ field: 'achievements.1.id', message: 'achievements.1.id must be at most 2147483647' })]);
      const unlocks = expectError(await postUnlocks([{ uuid: player.uuid, achievementId: id, unlockedAt: '2024-01-02T00:00:00Z' }]), 400, 'invalid_request');
      expect(unlocks.body.details).toEqual([expect.objectContaining({ field: 'unlocks.0.achievementId', message: 'unlocks.0.achievementId must be at most 2147483647' })]);
      expect(await stored()).toEqual(before);
    });

    it('stores the largest id an integer column holds on both databases', async () => {
      expect((await defineAchievements([{ id: 2_147_483_647, title: 'Largest', description: 'd' }])).body).toMatchObject({ upserted: 1 });
      const player = newPlayer();
      await postLogins([login(player, '2024-01-01T00:00:00Z')]);
      expect((await postUnlocks([{ uuid: player.uuid, achievementId: 2_147_483_647, unlockedAt: '2024-01-02T00:00:00Z' }])).body).toMatchObject({ accepted: 1 });
      expect((await app.get(`/users/achievements/${player.uuid}`)).body.data).toEqual([expect.objectContaining({ id: 2_147_483_647, title: 'Largest' })]);
    });
  });
});
