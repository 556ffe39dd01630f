import { RECENT_OF_SQL } from '../src/users/logins.repository';
import { HttpResult, newPlayer, TestApp } from './support/test-app';

/** The players site's routes (docs/players-site.md), as the site reads them. */
describe('players site (e2e)', () => {
  let app: TestApp;
  let key: string;

  const send = (path: string, body: unknown, method = 'POST'): Promise<HttpResult> => app.request(method, path, { body, headers: { 'x-api-key': key } });
  const logIn = async (player: { uuid: string; mcid: string }, loggedInAt: string): Promise<void> => {
    expect((await send('/game-server/logins', { logins: [{ ...player, loggedInAt }] })).status).toBe(200);
  };
  const notFound = { error: 'User not found.' };

  beforeAll(async () => {
    app = await TestApp.start();
    key = await app.createApiKey(['game-server']);
  });

  afterAll(async () => {
    await app.stop();
  });

  describe('answer style A (bare bodies)', () => {
    it('GET /v2/users/{id}: the latest game id and the uuid, by game id (any case), uuid with or without hyphens, or chat id', async () => {
      const player = newPlayer();
      await logIn({ ...player, mcid: 'OldName' }, '2024-01-01T00:00:00Z');
      await logIn(player, '2024-02-01T00:00:00Z');
      const chatid = `8${String(Date.now()).padStart(17, '0')}`;
      expect((await send(`/game-server/chat-links/${player.uuid}`, { chatid }, 'PUT')).status).toBe(200);
      const expected = { mcid: player.mcid, uuid: player.uuid };
      for (const id of [player.mcid, player.mcid.toUpperCase(), player.uuid, player.uuid.toUpperCase(), player.uuid.replace(/-/g, ''), chatid]) {
        const result = await app.get(`/v2/users/${id}`);
        expect({ id, status: result.status, body: result.body }).toEqual({ id, status: 200, body: expected });
      }
      // A former name is not the player's name any more.
      expect((await app.get('/v2/users/OldName')).body).toEqual(notFound);
    });

    it('an unknown player and an impossible id answer HTTP 200 {"error": "User not found."}', async () => {
      const stranger = newPlayer();
      for (const path of [`/v2/users/${stranger.uuid}`, `/v2/users/${stranger.mcid}`, '/v2/users/a%20b', '/v2/users/%3Cscript%3E', `/v2/users/recentLogin?uuid=${stranger.uuid}`, '/v2/users/recentLogin?uuid=%3Cb%3E']) {
        const result = await app.get(path);
        expect({ path, status: result.status, body: result.body }).toEqual({ path, status: 200, body: notFound });
      }
    });

    it('a wrong method on a known path is 405 with Allow, in the usual envelope (no route, so no bare answer); HEAD is answered', async () => {
      const player = newPlayer();
      await logIn(player, '2024-01-01T00:00:00Z');
      const wrong = await app.request('POST', `/v2/users/${player.uuid}`, { body: {} });
      expect({ status: wrong.status, error: wrong.body.error, allow: wrong.headers.get('allow') }).toEqual({ status: 405, error: 'method_not_allowed', allow: 'GET, HEAD' });
      const head = await app.request('HEAD', `/v2/users/data/${player.uuid}`);
      expect({ status: head.status, text: head.text }).toEqual({ status: 200, text: '' });
    });

    it('error text never echoes input and is HTML-safe', async () => {
      const result = await app.get('/v2/users/recentLogin?uuid=a&uuid=%3Cimg%20src%3Dx%3E');
      expect(result.status).toBe(200);
      expect(Object.keys(result.body)).toEqual(['error']);
      expect(result.text).not.toMatch(/[<>]|img/);
    });

    it('a player named like a literal route is reached by uuid; the literal route still answers', async () => {
      const player = { uuid: newPlayer().uuid, mcid: 'recentLogin' };
      await logIn(player, '2024-03-01T00:00:00Z');
      expect((await app.get(`/v2/users/${player.uuid}`)).body).toEqual({ mcid: 'recentLogin', uuid: player.uuid });
      expect(Array.isArray((await app.get('/v2/users/recentLogin')).body)).toBe(true);
      // Any other case of the name is not the literal route: the player.
      expect((await app.get('/v2/users/RECENTLOGIN')).body).toEqual({ mcid: 'recentLogin', uuid: player.uuid });
    });

    it('GET /v2/users/search/prefix: current names starting with the prefix, any case, most recently seen first, at most 20', async () => {
      const stem = `Zq${Date.now().toString(36).slice(-5)}`;
      const players = Array.from({ length: 22 }, (_, index) => ({ uuid: newPlayer().uuid, mcid: `${stem}${String(index).padStart(2, '0')}` }));
      for (const [index, player] of players.entries()) {
        await logIn(player, new Date(Date.UTC(2024, 0, 1, 0, index)).toISOString());
      }
      const renamed = players[21];
      await logIn({ ...renamed, mcid: `Other${stem}` }, '2024-01-02T00:00:00Z');
      const answer = await app.get('/v2/users/search/prefix', { query: { mcid: stem.toLowerCase(), recaptcha: 'any-token' } });
      expect(answer.status).toBe(200);
      expect(answer.body).toEqual(players.slice(1, 21).reverse().map((player) => player.mcid));
      expect((await app.get('/v2/users/search/prefix', { query: { mcid: '' } })).body).toEqual([]);
      expect((await app.get('/v2/users/search/prefix')).body).toEqual([]);
      expect((await app.get('/v2/users/search/prefix', { query: { mcid: '%_' } })).body).toEqual([]);
      // `_` is a game-id character, not a wildcard.
      expect((await app.get('/v2/users/search/prefix', { query: { mcid: `${stem}_` } })).body).toEqual([]);
    });

    it('GET /v2/users/recentLogin: the 50 players seen last, one login each, newest first, ids unique', async () => {
      const players = Array.from({ length: 52 }, () => newPlayer());
      for (const [index, player] of players.entries()) {
        await logIn(player, new Date(Date.UTC(2099, 0, 1, 0, index)).toISOString());
        await logIn(player, new Date(Date.UTC(2098, 0, 1, 0, index)).toISOString());
      }
      const answer = (await app.get('/v2/users/recentLogin')).body as unknown as Array<Record<string, unknown>>;
      expect(answer).toHaveLength(50);
      expect(answer.map((entry) => entry.uuid)).toEqual(players.slice(2).reverse().map((player) => player.uuid));
      expect(new Set(answer.map((entry) => entry.id)).size).toBe(50);
      // 2099-01-01T00:51Z is 09:51 in Tokyo.
      expect(answer[0]).toEqual({ id: expect.any(Number), mcid: players[51].mcid, uuid: players[51].uuid, date: '2099-01-01 09:51:00' });
      // The list is cached until the next login batch commits: a newer login is at the top at once.
      const latest = newPlayer();
      await logIn(latest, '2099-01-02T00:00:00Z');
      const after = (await app.get('/v2/users/recentLogin')).body as unknown as Array<Record<string, unknown>>;
      expect(after.map((entry) => entry.uuid).slice(0, 2)).toEqual([latest.uuid, players[51].uuid]);
    });

    it("GET /v2/users/recentLogin?uuid=: the player's 100 latest logins, each with the name used then", async () => {
      const player = newPlayer();
      for (let index = 0; index < 102; index += 1) {
        await logIn({ ...player, mcid: index === 101 ? player.mcid : `Before${index}` }, new Date(Date.UTC(2023, 0, 1, index)).toISOString());
      }
      const answer = (await app.get('/v2/users/recentLogin', { query: { uuid: player.mcid } })).body as unknown as Array<Record<string, unknown>>;
      expect(answer).toHaveLength(100);
      expect(answer[0]).toEqual({ id: expect.any(Number), mcid: player.mcid, date: '2023-01-05 14:00:00' });
      expect(answer[1]).toMatchObject({ mcid: 'Before100', date: '2023-01-05 13:00:00' });
      expect(answer[99]).toMatchObject({ mcid: 'Before2' });
    });
  });

  describe('who a player is: GET /v2/users/data/{id} and /v2/users/discord/{id}', () => {
    let bot: string;

    beforeAll(async () => {
      bot = await app.createApiKey(['chat-bot']);
    });

    const fromBot = (path: string, body: unknown): Promise<HttpResult> => app.request('POST', path, { body, headers: { 'x-api-key': bot } });

    it('a player with full data: vote rewards with the login text, logins with how long ago, a verified chat link, profile links, chat accounts', async () => {
      const player = newPlayer();
      await logIn(player, '2024-01-01T00:00:00Z');
      await logIn(player, '2026-11-20T00:00:00Z');
      const chatid = `7${String(Date.now()).padStart(17, '0')}`;
      const second = `6${String(Date.now()).padStart(17, '0')}`;
      expect((await send(`/game-server/chat-links/${player.uuid}`, { chatid }, 'PUT')).status).toBe(200);
      const votes = Array.from({ length: 20 }, (_, index) => ({ id: `${player.uuid}-a${index}`, uuid: player.uuid, site: 'minecraft.jp', votedAt: new Date(Date.UTC(2025, 0, 1 + index)).toISOString() }));
      votes.push(...Array.from({ length: 6 }, (_, index) => ({ id: `${player.uuid}-b${index}`, uuid: player.uuid, site: 'monocraft.net', votedAt: new Date(Date.UTC(2025, 1, 1 + index)).toISOString() })));
      expect((await send('/game-server/votes', { votes })).status).toBe(200);
      expect((await send('/game-server/login-texts', { loginTexts: [{ id: `${player.uuid}-t`, uuid: player.uuid, text: 'Hello', at: '2025-03-01T00:00:00Z' }] })).status).toBe(200);
      expect((await fromBot('/chat-bot/profile-links', { links: [{ id: `${player.uuid}-l`, uuid: player.uuid, twitterId: 'walker', githubId: 'octocat', homeUrl: 'https://walk.example/' }] })).status).toBe(200);
      expect(
        (await fromBot('/chat-bot/accounts', { accounts: [{ id: `${chatid}-n`, chatid, name: 'walker', discriminator: '0', avatarUrl: 'https://cdn.example/a.png', reportedAt: '2026-01-01T00:00:00Z' }] })).status,
      ).toBe(200);
      expect((await fromBot('/chat-bot/second-accounts', { secondAccounts: [{ id: `${second}-s`, chatid: second, mainChatid: chatid, registeredAt: '2026-02-01T00:00:00Z' }] })).status).toBe(200);

      const data = (await app.get(`/v2/users/data/${player.mcid}`)).body;
      expect(data).toEqual({
        rankText: 'Hello VIP',
        rank: 2,
        username: player.mcid,
        isVerified: true,
        uuid: player.uuid,
        firstLogin: '2024-01-01 09:00:00',
        firstHowManyAgo: expect.stringMatching(/^2年10か月\d+日$/),
        leastLogin: '2026-11-20 09:00:00',
        leastHowManyAgo: expect.stringMatching(/^\d+日$/),
        socials: { twitterId: 'walker', discordId: chatid, githubId: 'octocat', homeUrl: 'https://walk.example/' },
      });
      const discord = (await app.get(`/v2/users/discord/${chatid}`)).body;
      expect(discord).toEqual({
        mainAccount: { id: chatid, name: 'walker', discriminator: '0', imgurl: 'https://cdn.example/a.png' },
        subAccount: { id: second, name: second, discriminator: '0', imgurl: expect.stringMatching(/^https:\/\//) },
      });
    });

    it('a player with no data: every key present, socials an object of nulls, no chat accounts', async () => {
      const player = newPlayer();
      await logIn(player, '2026-11-01T00:00:00Z');
      expect((await app.get(`/v2/users/data/${player.uuid}`)).body).toEqual({
        rankText: null,
        rank: 0,
        username: player.mcid,
        isVerified: false,
        uuid: player.uuid,
        firstLogin: '2026-11-01 09:00:00',
        firstHowManyAgo: expect.stringMatching(/^\d+日$/),
        leastLogin: '2026-11-01 09:00:00',
        leastHowManyAgo: expect.stringMatching(/^\d+日$/),
        socials: { twitterId: null, discordId: null, githubId: null, homeUrl: null },
      });
      expect((await app.get(`/v2/users/discord/${player.uuid}`)).body).toEqual({ mainAccount: null, subAccount: null });
      for (const route of ['data', 'discord', 'info', 'punishment']) {
        expect((await app.get(`/v2/users/${route}/${newPlayer().uuid}`)).body).toEqual(notFound);
      }
    });
  });

  describe('play, groups and votes: GET /v2/users/info/{id} and /v2/users/daily-online', () => {
    it('a player with full data: group with its end, per-era durations and their sum, away time, votes and ranks; the heatmap split at midnight in Tokyo', async () => {
      const player = newPlayer();
      await logIn(player, '2026-10-01T00:00:00Z');
      const sessions = [
        // 23:00-01:00 in Tokyo: an hour on each day.
        { id: `${player.uuid}-1`, uuid: player.uuid, mcid: player.mcid, startedAt: '2026-11-01T14:00:00Z', endedAt: '2026-11-01T16:00:00Z' },
        { id: `${player.uuid}-2`, uuid: player.uuid, mcid: player.mcid, startedAt: '2026-11-03T00:00:00Z', endedAt: '2026-11-03T00:00:05Z' },
      ];
      expect((await send('/game-server/sessions', { sessions })).status).toBe(200);
      expect((await send('/game-server/away-time', { away: [{ id: `${player.uuid}-afk`, uuid: player.uuid, mcid: player.mcid, seconds: 3661, at: '2026-11-01T15:00:00Z' }] })).status).toBe(200);
      const votes = Array.from({ length: 21 }, (_, index) => ({ id: `${player.uuid}-v${index}`, uuid: player.uuid, site: 'minecraft.jp', votedAt: new Date(Date.UTC(2026, 0, 1 + index)).toISOString() }));
      // More votes on each site than any other player of this file: rank 1.
      votes.push(...Array.from({ length: 7 }, (_, index) => ({ id: `${player.uuid}-m${index}`, uuid: player.uuid, site: 'monocraft.net', votedAt: new Date(Date.UTC(2026, 1, 1 + index)).toISOString() })));
      expect((await send('/game-server/votes', { votes })).status).toBe(200);
      expect((await send('/game-server/group-changes', { groupChanges: [{ id: `${player.uuid}-g`, uuid: player.uuid, group: 'Verified', expiresAt: '2027-01-01T00:00:00Z', at: '2026-11-02T00:00:00Z' }] })).status).toBe(200);
      const info = await app.get(`/v2/users/info/${player.mcid}`);
      expect(info.body).toEqual({
        group: 'verified',
        groupWhen: '2026-11-02 09:00:00',
        groupExpireAt: '2027-01-01 09:00:00',
        totalTime: { kassi: null, jao1: null, jao2: null, jao3: null, jao4: '2時間0分5秒', jaototal: '2時間0分5秒' },
        afkTime: 3661,
        afkTimeFormatted: '1時間1分1秒',
        mcjpVoteCount: 21,
        mcjpVoteRank: 1,
        monoVoteCount: 7,
        monoVoteRank: 1,
      });
      expect((await app.get('/v2/users/daily-online', { query: { uuid: player.uuid } })).body).toEqual([
        { date: '2026-11-01', count: 3600 },
        { date: '2026-11-02', count: 3600 },
        { date: '2026-11-03', count: 5 },
      ]);
    });

    it('a player with no data: default group, no era but the sum, zero votes ranked after every voter, an empty heatmap', async () => {
      const player = newPlayer();
      await logIn(player, '2026-10-01T00:00:00Z');
      const info = (await app.get(`/v2/users/info/${player.uuid}`)).body;
      expect(info).toMatchObject({
        group: 'default',
        groupExpireAt: null,
        totalTime: { kassi: null, jao1: null, jao2: null, jao3: null, jao4: null, jaototal: '0秒' },
        afkTime: 0,
        afkTimeFormatted: '0秒',
        mcjpVoteCount: 0,
        monoVoteCount: 0,
      });
      expect(info.mcjpVoteRank).toBeGreaterThan(1);
      expect((await app.get('/v2/users/daily-online', { query: { uuid: player.uuid } })).body).toEqual([]);
      expect((await app.get('/v2/users/daily-online', { query: { uuid: newPlayer().uuid } })).body).toEqual(notFound);
      expect((await app.get('/v2/users/daily-online')).body).toEqual({ error: 'Invalid request.' });
    });
  });

  describe('GET /v2/users/punishment/{id}', () => {
    it('every kind, newest first, with counts, state, last words and the issuer; a player known only from a punishment is known', async () => {
      const player = newPlayer();
      const issued = (id: string, kind: string, issuedAt: string, extra: Record<string, unknown> = {}) => ({ id, kind, uuid: player.uuid, mcid: player.mcid, reason: `${kind} <b>reason</b>`, issuedBy: 'Moderator1', issuedAt, ...extra });
      const stored = await send('/game-server/punishments', {
        punishments: [
          issued('p1', 'jail', '2024-01-01T00:00:00Z', { testment: 'goodbye' }),
          issued('p2', 'chatjail', '2024-02-01T00:00:00Z'),
          issued('p3', 'eban', '2024-03-01T00:00:00Z', { issuedBy: 'CONSOLE' }),
          issued('p4', 'vban', '2024-04-01T00:00:00Z'),
          issued('p5', 'jail', '2024-05-01T00:00:00Z'),
        ],
      });
      expect(stored.status).toBe(200);
      expect((await send('/game-server/punishments/lifts', { lifts: [{ kind: 'jail', id: 'p1', liftedAt: '2024-01-02T00:00:00Z' }] })).status).toBe(200);
      // Never logged in: known from the punishments.
      expect((await app.get(`/v2/users/${player.mcid}`)).body).toEqual({ mcid: player.mcid, uuid: player.uuid });
      const answer = (await app.get(`/v2/users/punishment/${player.uuid}`)).body as unknown as { count: Record<string, number>; items: Array<Record<string, unknown>> };
      expect(answer.count).toEqual({ jail: 2, chatjail: 1, eban: 1, vban: 1 });
      expect(answer.items.map((item) => item.type)).toEqual(['Jail', 'VBan', 'EBan', 'ChatJail', 'Jail']);
      expect(answer.items[4]).toEqual({ type: 'Jail', id: expect.any(Number), mcid: player.mcid, reason: 'jail <b>reason</b>', testment: 'goodbye', status: false, bannedBy: 'Moderator1', date: '2024-01-01 09:00:00' });
      expect(answer.items[0]).toMatchObject({ status: true, testment: null });
      expect(answer.items[2]).toMatchObject({ type: 'EBan', bannedBy: 'CONSOLE' });
    });

    it('a player without punishments: zero counts and no items; an unknown one: User not found.', async () => {
      const player = newPlayer();
      await logIn(player, '2024-01-01T00:00:00Z');
      expect((await app.get(`/v2/users/punishment/${player.mcid}`)).body).toEqual({ count: { jail: 0, chatjail: 0, eban: 0, vban: 0 }, items: [] });
      expect((await app.get(`/v2/users/punishment/${newPlayer().uuid}`)).body).toEqual(notFound);
    });
  });

  describe('answer style B (the base response, error = the message)', () => {
    it('GET /v1/users/jsa/{uuid}: unlocked achievements with wall-clock dates, getted and all', async () => {
      const player = newPlayer();
      await logIn(player, '2024-01-01T00:00:00Z');
      expect((await send('/game-server/achievements', { achievements: [{ id: 9101, title: 'Hidden one', description: 'd', hidden: true }, { id: 9102, title: 'Other', description: 'e' }] }, 'PUT')).status).toBe(200);
      expect((await send('/game-server/achievements/unlocks', { unlocks: [{ uuid: player.uuid, achievementId: 9101, unlockedAt: '2024-05-05T15:00:00Z' }] })).status).toBe(200);
      const answer = await app.get(`/v1/users/jsa/${player.uuid}`, { query: { user_recaptcha: 'x' } });
      expect(answer.status).toBe(200);
      expect(answer.body).toMatchObject({ status: true, code: 200, getted: 1, data: [{ id: 9101, title: 'Hidden one', description: 'd', date: '2024-05-06 00:00:00' }] });
      expect(answer.body.all).toBeGreaterThanOrEqual(2);
      expect((await app.get(`/users/jsa/${player.mcid}`)).body).toEqual(answer.body);
    });

    it("GET /users/pm_recently/{uuid}: the player's latest mini-game results with their places; none: data []", async () => {
      const player = newPlayer();
      const rival = newPlayer();
      await logIn(player, '2024-01-01T00:00:00Z');
      const result = (id: string, who: { uuid: string; mcid: string }, success: number, failure: number, endTime: string) => ({
        id,
        uuid: who.uuid,
        mcid: who.mcid,
        success,
        failure,
        matchTime: 60,
        realMatchTime: 61,
        calcMatchTime: 60000,
        startTime: '2024-06-01T00:00:00Z',
        endTime,
      });
      const stem = `pm-${player.uuid}`;
      expect((await app.get(`/users/pm_recently/${player.uuid}`)).body).toMatchObject({ status: true, data: [] });
      const stored = await send('/game-server/mini-games/periodmatch', {
        results: [result(`${stem}-1`, player, 10, 0, '2024-06-01T00:01:00Z'), result(`${stem}-2`, player, 5, 5, '2024-06-02T00:01:00Z'), result(`${stem}-3`, rival, 20, 0, '2024-06-03T00:01:00Z')],
      });
      expect(stored.status).toBe(200);
      const answer = await app.get(`/v1/users/pm_recently/${player.mcid}`, { query: { user_recaptcha: 'x' } });
      expect(answer.status).toBe(200);
      const data = answer.body.data as Array<Record<string, unknown>>;
      expect(data.map((entry) => entry.success)).toEqual([5, 10]);
      expect(data[1]).toEqual({
        id: expect.any(Number),
        mcid: player.mcid,
        success: 10,
        failure: 0,
        match_time: 60,
        real_match_time: 61,
        calc_match_time: 60000,
        status: true,
        rank: 2,
        start_time: '2024-06-01 09:00:00',
        end_time: '2024-06-01 09:01:00',
        created_at: '2024-06-01 09:01:00',
      });
      expect(data[0].rank).toBe(3);
    });

    it('unknown players and records answer their usual status, with error holding the message', async () => {
      const stranger = newPlayer();
      const unknown = await app.get(`/v1/users/jsa/${stranger.uuid}`);
      expect(unknown.status).toBe(404);
      expect(unknown.body).toMatchObject({ status: false, code: 404, message: 'User not found.', error: 'User not found.' });
      expect(typeof unknown.body.message_ja).toBe('string');
      const player = newPlayer();
      await logIn(player, '2024-01-01T00:00:00Z');
      const clean = await app.get(`/v1/users/mcbans/${player.uuid}`);
      expect(clean.status).toBe(404);
      expect(clean.body.error).toBe(clean.body.message);
      const noBan = await app.get('/v1/users/mcbans/ban/987654321');
      expect(noBan.status).toBe(404);
      const huge = await app.get('/v1/users/mcbans/ban/9007199254740993');
      expect({ status: huge.status, message: huge.body.message }).toEqual({ status: 404, message: 'No ban 9007199254740993 in the ban-list mirror.' });
      const badId = await app.get('/v1/users/mcbans/ban/abc');
      expect(badId.status).toBe(400);
      expect(badId.body.error).toBe(badId.body.message);
    });
  });

  describe('from the site: CORS, no CAPTCHA needed, a page loads whole, a token helps only over the limit', () => {
    const SITE = 'https://players.example.org';
    let site: TestApp;

    beforeAll(async () => {
      site = await TestApp.start({ RATE_LIMIT_ENABLED: 'true', TRUST_PROXY: '127.0.0.1', CORS_ORIGINS: SITE }, { database: app.database });
    });

    afterAll(async () => {
      await site.stop({ keepDatabase: true });
    });

    it("answers the site's origin and its preflights (the bans site's X-reCAPTCHA-Token header included)", async () => {
      const player = newPlayer();
      await logIn(player, '2024-01-01T00:00:00Z');
      const read = await site.get(`/v2/users/${player.uuid}`, { headers: { origin: SITE } });
      expect(read.headers.get('access-control-allow-origin')).toBe(SITE);
      const preflight = await site.request('OPTIONS', '/v2/bans/recent', {
        headers: { origin: SITE, 'access-control-request-method': 'GET', 'access-control-request-headers': 'x-recaptcha-token' },
      });
      expect(preflight.status).toBe(204);
      expect(preflight.headers.get('access-control-allow-headers')?.toLowerCase()).toContain('x-recaptcha-token');
      expect(preflight.headers.get('access-control-allow-credentials')).toBeNull();
    });

    it('lets a page of twenty parallel reads through without a token and without asking the CAPTCHA provider', async () => {
      const player = newPlayer();
      await logIn(player, '2024-01-01T00:00:00Z');
      const asked = site.captcha.requests.length;
      const headers = { origin: SITE, 'x-forwarded-for': '198.51.100.20' };
      const page = await Promise.all(Array.from({ length: 20 }, () => site.get(`/v2/users/${player.uuid}`, { headers, query: { recaptcha: 'pass' } })));
      expect(page.map((result) => result.status)).toEqual(Array(20).fill(200));
      expect(site.captcha.requests.length).toBe(asked);
    });

    it('over the per-address limit: 429, unless the request carries a token that verifies (action login)', async () => {
      const player = newPlayer();
      await logIn(player, '2024-01-01T00:00:00Z');
      const headers = { 'x-forwarded-for': '198.51.100.21' };
      for (let sent = 0; sent < 600; sent += 50) {
        await Promise.all(Array.from({ length: 50 }, () => site.get('/health', { headers })));
      }
      const refused = await site.get(`/v2/users/${player.uuid}`, { headers });
      expect(refused.status).toBe(429);
      expect(refused.body).toMatchObject({ status: false, code: 429, error: 'rate_limited' });
      expect((await site.get(`/v2/users/${player.uuid}`, { headers, query: { recaptcha: 'fail' } })).status).toBe(429);
      expect((await site.get(`/v2/users/${player.uuid}`, { headers, query: { recaptcha: 'error-500' } })).status).toBe(429);
      const passed = await site.get(`/v2/users/${player.uuid}`, { headers, query: { recaptcha: 'pass' } });
      expect({ status: passed.status, body: passed.body }).toEqual({ status: 200, body: { mcid: player.mcid, uuid: player.uuid } });
      expect((await site.get(`/v1/users/jsa/${player.uuid}`, { headers, query: { user_recaptcha: 'pass' } })).status).toBe(200);
      // A route that takes no token: the token does not help.
      expect((await site.get('/health', { headers, query: { recaptcha: 'pass' } })).status).toBe(429);
    });
  });

  describe('reads by index', () => {
    it("reads a player's latest logins by index (on MariaDB from the index alone, with no row read per login)", async () => {
      const player = newPlayer();
      await logIn(player, '2024-01-01T00:00:00Z');
      if (app.dataSource.options.type === 'mysql') {
        const [plan] = await app.dataSource.query<Array<{ key: string; Extra: string }>>(`EXPLAIN ${RECENT_OF_SQL}`, [player.uuid, 100]);
        expect(plan.key).toBe('IDX_login_records_player_recent');
        expect(plan.Extra).toContain('Using index');
      } else {
        const plan = await app.dataSource.query<Array<{ detail: string }>>(`EXPLAIN QUERY PLAN ${RECENT_OF_SQL}`, [player.uuid, 100]);
        expect(plan.map((step) => step.detail)).toEqual([expect.stringMatching(/^SEARCH login_records USING INDEX UQ_login_records_player_time \(player_uuid=\?\)$/)]);
      }
    });
  });
});
