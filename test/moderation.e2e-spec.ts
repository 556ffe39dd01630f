import sharp from 'sharp';
import { BanlistRepository } from '../src/banlist-sync/banlist.repository';
import { UnitOfWork } from '../src/database/unit-of-work';
import { CommunityBanlistBansRepository } from '../src/community-bans/community-banlist-bans.repository';
import { cityFieldsFactory } from './support/cities';
import { ClubUser, expectError, HttpResult, newPlayer, registerClubUser, TestApp } from './support/test-app';

interface Summary {
  kind: string;
  id: string;
  player: { uuid: string; mcid: string | null };
  reason: string;
  issuedBy: string | null;
  issuedAt: string;
  active: boolean;
  liftedAt: string | null;
  evidenceCount: number;
  hasNote: boolean;
}

interface FeedEvent {
  id: number;
  type: string;
  data: { punishment?: { id: number; active: boolean } };
}

const cityFields = cityFieldsFactory({ name: 'Moderated', kana: 'もでれいと', kanaDigits: 'あいうえおかきくけこ', z: 700_000 });
const ids = { next: 0 };
const unique = (prefix: string): string => `${prefix}${Date.now().toString(36)}${(ids.next += 1)}`;

/** The moderation API (docs/api.md, Moderation), on the database the suite runs on. */
describe('moderation (e2e)', () => {
  let app: TestApp;
  let gameServer: Record<string, string>;
  let operator: Record<string, string>;
  let admin: ClubUser;
  let png: Buffer;

  const send = (path: string, body: unknown, method = 'POST'): Promise<HttpResult> => app.request(method, path, { body, headers: gameServer });
  const get = <T = Record<string, unknown>>(path: string, query: Record<string, string | number> = {}): Promise<HttpResult<{ data: T }>> =>
    app.get<{ data: T }>(path, { query, headers: operator });
  const upload = async (path: string, body: Buffer, contentType: string, headers = operator): Promise<HttpResult> => {
    const response = await fetch(new URL(path, app.baseUrl), { method: 'POST', headers: { ...headers, 'content-type': contentType }, body });
    const text = await response.text();
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = undefined;
    }
    return { status: response.status, headers: response.headers, body: parsed as Record<string, unknown>, text };
  };
  const issue = async (player: { uuid: string; mcid: string }, kind: string, issuedAt: string, extra: Record<string, unknown> = {}): Promise<{ sourceId: string; id: string }> => {
    const sourceId = unique(`${kind}-`);
    const stored = await send('/game-server/punishments', { punishments: [{ id: sourceId, kind, uuid: player.uuid, mcid: player.mcid, reason: `reason of ${kind}`, issuedBy: 'CONSOLE', issuedAt, ...extra }] });
    expect(stored.status).toBe(200);
    const list = await get<{ items: Summary[] }>('/moderation/records', { player: player.uuid, kind: kind === 'chatjail' ? 'chatban' : kind, limit: 100 });
    const found = list.body.data.items.find((item) => item.issuedAt === new Date(issuedAt).toISOString());
    return { sourceId, id: found!.id };
  };
  const communityBan = async (uuid: string, type: 'global' | 'local', bannedAt: string, active = true): Promise<string> => {
    const banId = 800_000_000 + Math.floor(Math.random() * 100_000_000);
    await app.app.get(UnitOfWork).transaction(async (tx) => {
      await app.app
        .get(CommunityBanlistBansRepository)
        .insert(tx, { origin: 'original', sourceId: unique('ban-'), banId, uuid, type, reason: `community ${type}`, bannedBy: 'Admin_1', bannedAt: new Date(bannedAt), bannedAtFrom: 'source' }, new Date());
      if (!active) {
        await app.app.get(CommunityBanlistBansRepository).update(tx, banId, { active: false }, new Date());
      }
    });
    return String(banId);
  };
  const lastEventId = async (): Promise<number> => {
    let after = 0;
    for (;;) {
      const page = await app.get<{ data: FeedEvent[]; next: number }>('/events', { query: { after, limit: 500 }, headers: operator });
      if (page.body.data.length === 0) {
        return after;
      }
      after = page.body.next;
    }
  };
  const feedAfter = async (after: number): Promise<FeedEvent[]> => (await app.get<{ data: FeedEvent[] }>('/events', { query: { after }, headers: operator })).body.data;

  beforeAll(async () => {
    app = await TestApp.start();
    const gameServerKey = await app.createApiKey(['game-server']);
    gameServer = { 'x-api-key': gameServerKey };
    operator = { 'x-api-key': await app.createApiKey(['operator'], unique('moderator-')) };
    admin = await registerClubUser(app, gameServerKey, { admin: true });
    png = await sharp({ create: { width: 4, height: 3, channels: 3, background: '#c04020' } })
      .png()
      .toBuffer();
  });

  afterAll(async () => {
    await app.stop();
  });

  describe('credentials', () => {
    it('answers 401 without a credential and 403 for a non-admin or a key without the operator scope, on every route', async () => {
      const member = await registerClubUser(app, gameServer['x-api-key']);
      const routes: Array<[string, string]> = [
        ['GET', '/moderation/players?q=abc'],
        ['GET', `/moderation/players/${member.uuid}`],
        ['GET', '/moderation/records'],
        ['GET', '/moderation/records/vban/1'],
        ['POST', '/moderation/records/vban/1/lift'],
        ['PUT', '/moderation/records/vban/1/note'],
        ['DELETE', '/moderation/records/vban/1/evidence/x.png'],
      ];
      for (const [method, path] of routes) {
        const body = method === 'PUT' ? { note: 'x' } : undefined;
        expectError(await app.request(method, path, { body }), 401, 'unauthorized');
        expectError(await app.request(method, path, { body, headers: { authorization: `Bearer ${member.usertoken}` } }), 403, 'forbidden');
        expectError(await app.request(method, path, { body, headers: gameServer }), 403, 'forbidden');
      }
      expectError(await upload('/moderation/records/vban/1/evidence', png, 'image/png', {}), 401, 'unauthorized');
      // A club admin's token is an operator's credential.
      expect((await app.get('/moderation/records', { headers: { authorization: `Bearer ${admin.usertoken}` } })).status).toBe(200);
    });

    it("takes the console's session: reads with the cookie, changes (a note, a picture) only with its CSRF token", async () => {
      const player = newPlayer();
      const jail = await issue(player, 'jail', '2026-01-05T00:00:00Z');
      const signed = await app.post<{ data: { csrfToken: string } }>('/console-session', undefined, { headers: operator });
      expect(signed.status).toBe(201);
      const cookie = signed.headers.getSetCookie().find((line) => /console_session=/.test(line))!.split(';')[0];
      const session = { cookie, 'x-csrf-token': signed.body.data.csrfToken, origin: app.baseUrl };
      const path = `/moderation/records/jail/${jail.id}`;
      expect((await app.get(path, { headers: { cookie } })).status).toBe(200);
      expectError(await app.request('PUT', `${path}/note`, { body: { note: 'no token' }, headers: { cookie } }), 403, 'forbidden');
      expectError(await upload(`${path}/evidence`, png, 'image/png', { cookie }), 403, 'forbidden');
      expect((await app.request('PUT', `${path}/note`, { body: { note: 'from the console' }, headers: session })).status).toBe(200);
      expect((await upload(`${path}/evidence`, png, 'image/png', session)).status).toBe(201);
      const page = await get<{ note: string; evidence: unknown[]; history: Array<{ action: string; actor: string }> }>(path);
      expect(page.body.data.note).toBe('from the console');
      expect(page.body.data.evidence).toHaveLength(1);
      expect(page.body.data.history.map((entry) => entry.action)).toEqual(['note', 'evidence-added']);
      // The session acts as the key that opened it.
      expect(page.body.data.history.map((entry) => entry.actor)).toEqual([expect.stringMatching(/^apikey:moderator-/), expect.stringMatching(/^apikey:moderator-/)]);
    });
  });

  describe('players', () => {
    it('finds a player by the start of a game id (any case), a uuid with or without hyphens, or a chat id', async () => {
      const player = newPlayer();
      expect((await send('/game-server/logins', { logins: [{ ...player, loggedInAt: '2026-11-01T00:00:00Z' }] })).status).toBe(200);
      const chatid = `5${String(Date.now()).padStart(17, '0')}`;
      expect((await send(`/game-server/chat-links/${player.uuid}`, { chatid }, 'PUT')).status).toBe(200);
      const expected = { uuid: player.uuid, mcid: player.mcid, chatid, lastLogin: '2026-11-01T00:00:00.000Z' };
      for (const q of [player.mcid, player.mcid.slice(0, -2).toUpperCase(), player.uuid, player.uuid.toUpperCase().replace(/-/g, ''), chatid]) {
        const found = await get<{ items: unknown[] }>('/moderation/players', { q });
        expect({ q, status: found.status, items: found.body.data.items.filter((item) => (item as { uuid: string }).uuid === player.uuid) }).toEqual({ q, status: 200, items: [expected] });
      }
      expect((await get<{ items: unknown[] }>('/moderation/players', { q: newPlayer().uuid })).body.data.items).toEqual([]);
      expect((await get<{ items: unknown[] }>('/moderation/players', { q: 'no such name!' })).body.data.items).toEqual([]);
      expectError(await app.get('/moderation/players', { headers: operator }), 400, 'invalid_request');
    });

    it("a player's page with data of every kind", async () => {
      const player = await registerClubUser(app, gameServer['x-api-key']);
      const bot = { 'x-api-key': await app.createApiKey(['chat-bot']) };
      expect((await send('/game-server/logins', { logins: [{ uuid: player.uuid, mcid: 'OldName', loggedInAt: '2026-10-01T00:00:00Z' }] })).status).toBe(200);
      expect((await send('/game-server/logins', { logins: [{ uuid: player.uuid, mcid: player.mcid, loggedInAt: '2026-11-01T00:00:00Z' }] })).status).toBe(200);
      const chatid = `4${String(Date.now()).padStart(17, '0')}`;
      expect((await send(`/game-server/chat-links/${player.uuid}`, { chatid }, 'PUT')).status).toBe(200);
      expect(
        (await app.request('POST', '/chat-bot/accounts', { body: { accounts: [{ id: `${chatid}-n`, chatid, name: 'walker', discriminator: '0', avatarUrl: 'https://cdn.example/a.png', reportedAt: '2026-01-01T00:00:00Z' }] }, headers: bot }))
          .status,
      ).toBe(200);
      const sessions = [{ id: `${player.uuid}-1`, uuid: player.uuid, mcid: player.mcid, startedAt: '2026-11-01T00:00:00Z', endedAt: '2026-11-01T02:00:00Z' }];
      expect((await send('/game-server/sessions', { sessions })).status).toBe(200);
      expect((await send('/game-server/away-time', { away: [{ id: `${player.uuid}-afk`, uuid: player.uuid, mcid: player.mcid, seconds: 61, at: '2026-11-01T01:00:00Z' }] })).status).toBe(200);
      expect((await send('/game-server/group-changes', { groupChanges: [{ id: `${player.uuid}-g`, uuid: player.uuid, group: 'Verified', at: '2026-11-02T00:00:00Z' }] })).status).toBe(200);
      const jail = await issue(player, 'jail', '2026-09-01T00:00:00Z', { testment: 'bye' });
      const mute = await issue(player, 'chatjail', '2026-09-02T00:00:00Z');
      const eban = await issue(player, 'eban', '2026-09-03T00:00:00Z');
      const vban = await issue(player, 'vban', '2026-09-04T00:00:00Z');
      const gban = await communityBan(player.uuid, 'global', '2026-08-01T00:00:00Z');
      const lban = await communityBan(player.uuid, 'local', '2026-08-02T00:00:00Z', false);
      const mirrored = 700_000_000 + Math.floor(Math.random() * 100_000_000);
      await app.app.get(UnitOfWork).transaction((tx) =>
        app.app.get(BanlistRepository).replacePlayer(
          tx,
          player.uuid,
          {
            uuid: player.uuid,
            name: player.mcid,
            reputation: 7,
            bans: [{ banId: mirrored, type: 'global', reason: 'elsewhere', server: 'other.example', bannedBy: null, lostRep: 3, bannedAt: new Date('2026-07-01T00:00:00Z') }],
          },
          new Date(),
        ),
      );
      const city = await app.post<{ data: { id: number } }>('/cities/create', cityFields({ usertoken: player.usertoken }));
      expect(city.status).toBe(201);
      expect((await app.request('PUT', `/moderation/records/vban/${vban.id}/note`, { body: { note: 'watch' }, headers: operator })).status).toBe(200);
      expect((await upload(`/moderation/records/eban/${eban.id}/evidence`, png, 'image/png')).status).toBe(201);

      const page = await get<Record<string, unknown>>(`/moderation/players/${player.uuid.replace(/-/g, '').toUpperCase()}`);
      expect(page.status).toBe(200);
      const data = page.body.data;
      expect(data.player).toEqual({ uuid: player.uuid, mcid: player.mcid, chatid, group: 'verified', firstLogin: expect.any(String), lastLogin: '2026-11-01T00:00:00.000Z' });
      expect(data.logins).toEqual([
        { mcid: player.mcid, loggedInAt: '2026-11-01T00:00:00.000Z' },
        { mcid: 'OldName', loggedInAt: '2026-10-01T00:00:00.000Z' },
      ]);
      const playTime = data.playTime as { eras: Array<{ era: string; seconds: number }>; totalSeconds: number; awaySeconds: number };
      expect(playTime.totalSeconds).toBe(7200);
      expect(playTime.eras.reduce((sum, era) => sum + era.seconds, 0)).toBe(7200);
      expect(playTime.awaySeconds).toBe(61);
      expect(data.chatAccounts).toEqual({ main: { id: chatid, name: 'walker', discriminator: '0', avatarUrl: 'https://cdn.example/a.png' }, sub: null });
      expect(data.banlist).toEqual([
        { banId: Number(lban), kind: 'lban', reason: 'community local', server: null, bannedAt: '2026-08-02T00:00:00.000Z', active: false },
        { banId: Number(gban), kind: 'gban', reason: 'community global', server: null, bannedAt: '2026-08-01T00:00:00.000Z', active: true },
        { banId: mirrored, kind: 'gban', reason: 'elsewhere', server: 'other.example', bannedAt: '2026-07-01T00:00:00.000Z', active: true },
      ]);
      const records = data.records as Summary[];
      expect(records.map((record) => [record.kind, record.id])).toEqual([
        ['vban', vban.id],
        ['eban', eban.id],
        ['chatban', mute.id],
        ['jail', jail.id],
        ['lban', lban],
        ['gban', gban],
      ]);
      expect(records[0]).toEqual({
        kind: 'vban',
        id: vban.id,
        player: { uuid: player.uuid, mcid: player.mcid },
        reason: 'reason of vban',
        issuedBy: 'CONSOLE',
        issuedAt: '2026-09-04T00:00:00.000Z',
        active: true,
        liftedAt: null,
        evidenceCount: 0,
        hasNote: true,
      });
      expect(records[1]).toMatchObject({ evidenceCount: 1, hasNote: false });
      expect(records[4]).toMatchObject({ active: false, issuedBy: 'Admin_1', player: { uuid: player.uuid, mcid: player.mcid } });
      expect(data.cities).toEqual([{ id: expect.any(Number), name: expect.stringMatching(/^Moderated /), status: 'pending' }]);
    });

    it('a player with no data: empty parts; an unknown player 404, an impossible uuid 400', async () => {
      const player = newPlayer();
      expect((await send('/game-server/logins', { logins: [{ ...player, loggedInAt: '2026-11-01T00:00:00Z' }] })).status).toBe(200);
      const page = await get<Record<string, unknown>>(`/moderation/players/${player.uuid}`);
      expect(page.body.data).toEqual({
        player: { uuid: player.uuid, mcid: player.mcid, chatid: null, group: 'default', firstLogin: '2026-11-01T00:00:00.000Z', lastLogin: '2026-11-01T00:00:00.000Z' },
        logins: [{ mcid: player.mcid, loggedInAt: '2026-11-01T00:00:00.000Z' }],
        playTime: { eras: [], totalSeconds: 0, awaySeconds: 0 },
        chatAccounts: { main: null, sub: null },
        banlist: [],
        records: [],
        cities: [],
      });
      expectError(await app.get(`/moderation/players/${newPlayer().uuid}`, { headers: operator }), 404, 'not_found');
      expectError(await app.get('/moderation/players/not-a-uuid', { headers: operator }), 400, 'invalid_request');
    });
  });

  describe('records', () => {
    it('lists every kind newest first, with each filter, and pages with the cursor', async () => {
      const player = newPlayer();
      const issuer = unique('Mod_').slice(0, 16);
      const jail = await issue(player, 'jail', '2026-06-01T00:00:00Z', { issuedBy: issuer });
      const vban = await issue(player, 'vban', '2026-06-03T00:00:00Z');
      const mute = await issue(player, 'chatjail', '2026-06-02T00:00:00Z', { issuedBy: issuer });
      // Same time as the vban: the order is still fixed (punishments first, then by id).
      const gban = await communityBan(player.uuid, 'global', '2026-06-03T00:00:00Z');
      const lban = await communityBan(player.uuid, 'local', '2026-05-01T00:00:00Z', false);
      expect((await send('/game-server/punishments/lifts', { lifts: [{ kind: 'chatjail', id: mute.sourceId, liftedAt: '2026-06-05T00:00:00Z' }] })).status).toBe(200);
      const list = async (query: Record<string, string | number>): Promise<string[]> => {
        const page = await get<{ items: Summary[]; nextCursor: string | null }>('/moderation/records', { player: player.uuid, ...query });
        expect(page.status).toBe(200);
        return page.body.data.items.map((item) => `${item.kind}:${item.id}`);
      };
      const all = [`vban:${vban.id}`, `gban:${gban}`, `chatban:${mute.id}`, `jail:${jail.id}`, `lban:${lban}`];
      expect(await list({})).toEqual(all);
      expect(await list({ kind: 'jail,gban' })).toEqual([`gban:${gban}`, `jail:${jail.id}`]);
      const repeated = await app.get<{ data: { items: Summary[] } }>(`/moderation/records?player=${player.uuid}&kind=chatban&kind=lban`, { headers: operator });
      expect(repeated.body.data.items.map((item) => item.kind)).toEqual(['chatban', 'lban']);
      // `kind` is the one parameter that may repeat, and only here: any other repeated one is a 400.
      expectError(await app.get(`/moderation/records?state=all&state=lifted`, { headers: operator }), 400, 'invalid_request');
      expectError(await app.get(`/moderation/players?q=a&q=b`, { headers: operator }), 400, 'invalid_request');
      expectError(await app.get(`/cities?kind=a&kind=b`), 400, 'invalid_request');
      expect(await list({ state: 'active' })).toEqual([`vban:${vban.id}`, `gban:${gban}`, `jail:${jail.id}`]);
      expect(await list({ state: 'lifted' })).toEqual([`chatban:${mute.id}`, `lban:${lban}`]);
      expect(await list({ state: 'all', issuer })).toEqual([`chatban:${mute.id}`, `jail:${jail.id}`]);
      expect(await list({ issuer: 'Admin_1' })).toEqual([`gban:${gban}`, `lban:${lban}`]);
      expect(await list({ from: '2026-06-02T00:00:00Z', to: '2026-06-03T00:00:00Z' })).toEqual([`chatban:${mute.id}`]);
      expect(await list({ player: player.uuid.replace(/-/g, '') })).toEqual(all);

      const paged: string[] = [];
      let cursor: string | null = null;
      do {
        const page: HttpResult<{ data: { items: Summary[]; nextCursor: string | null } }> = await get('/moderation/records', { player: player.uuid, limit: 2, ...(cursor ? { cursor } : {}) });
        expect(page.body.data.items.length).toBeLessThanOrEqual(2);
        paged.push(...page.body.data.items.map((item) => `${item.kind}:${item.id}`));
        cursor = page.body.data.nextCursor;
      } while (cursor !== null);
      expect(paged).toEqual(all);

      const invalid: Array<Record<string, string | number>> = [{ kind: 'ban' }, { state: 'gone' }, { limit: 0 }, { limit: 101 }, { cursor: 'bm90LWEtY3Vyc29y' }, { from: 'yesterday' }];
      for (const query of invalid) {
        expectError(await app.get('/moderation/records', { query, headers: operator }), 400, 'invalid_request');
      }
    });

    it("a record's page; unknown kind 400, unknown id 404", async () => {
      const player = newPlayer();
      const eban = await issue(player, 'eban', '2026-04-01T00:00:00Z');
      const page = await get<Record<string, unknown>>(`/moderation/records/eban/${eban.id}`);
      expect(page.body.data).toEqual({
        record: {
          kind: 'eban',
          id: eban.id,
          player: { uuid: player.uuid, mcid: player.mcid },
          reason: 'reason of eban',
          issuedBy: 'CONSOLE',
          issuedAt: '2026-04-01T00:00:00.000Z',
          active: true,
          liftedAt: null,
          evidenceCount: 0,
          hasNote: false,
          liftedBy: null,
          liftReason: null,
          liftConfirmedAt: null,
          updatedAt: expect.any(String),
        },
        note: null,
        evidence: [],
        history: [],
      });
      const gban = await communityBan(player.uuid, 'global', '2026-04-02T00:00:00Z');
      expect((await get<{ record: Summary }>(`/moderation/records/gban/${gban}`)).body.data.record).toMatchObject({ kind: 'gban', id: gban, issuedBy: 'Admin_1', active: true });

      expectError(await app.get(`/moderation/records/ban/${eban.id}`, { headers: operator }), 400, 'invalid_request');
      for (const path of [`/moderation/records/vban/${eban.id}`, `/moderation/records/lban/${gban}`, '/moderation/records/eban/99999999', '/moderation/records/eban/abc', '/moderation/records/gban/1']) {
        expectError(await app.get(path, { headers: operator }), 404, 'not_found');
        expectError(await app.post(`${path}/lift`, {}, { headers: operator }), 404, 'not_found');
        expectError(await app.request('PUT', `${path}/note`, { body: { note: 'x' }, headers: operator }), 404, 'not_found');
        expectError(await upload(`${path}/evidence`, png, 'image/png'), 404, 'not_found');
      }
    });
  });

  describe('lifts', () => {
    it('lifts once: one punishment.lifted in the feed; the game server’s later report of it makes no second event and no second entry', async () => {
      const player = newPlayer();
      const vban = await issue(player, 'vban', '2026-03-01T00:00:00Z');
      const before = await lastEventId();
      const lifted = await app.post<{ data: Record<string, unknown> }>(`/moderation/records/vban/${vban.id}/lift`, { reason: 'Appeal accepted' }, { headers: operator });
      expect(lifted.status).toBe(200);
      expect(lifted.body.data).toMatchObject({ kind: 'vban', id: vban.id, active: false, liftedAt: expect.any(String), liftedBy: expect.stringMatching(/^apikey:moderator-/), liftReason: 'Appeal accepted' });
      const events = (await feedAfter(before)).filter((event) => event.data.punishment?.id === Number(vban.id));
      expect(events.map((event) => [event.type, event.data.punishment?.active])).toEqual([['punishment.lifted', false]]);

      expect(lifted.body.data.liftConfirmedAt).toBeNull();
      // The game server applies it, then reports the lift as it reports every lift: kept as the lift's confirmation.
      const reportedAt = new Date().toISOString();
      const report = await send('/game-server/punishments/lifts', { lifts: [{ kind: 'vban', id: vban.sourceId, liftedAt: reportedAt }] });
      expect(report.body).toMatchObject({ accepted: 0, skipped: 1 });
      expect((await send('/game-server/punishments/lifts', { lifts: [{ kind: 'vban', id: vban.sourceId, liftedAt: new Date().toISOString() }] })).body).toMatchObject({ accepted: 0, skipped: 1 });
      expect((await feedAfter(before)).filter((event) => event.data.punishment?.id === Number(vban.id))).toHaveLength(1);
      const page = await get<{ record: Record<string, unknown>; history: Array<Record<string, unknown>> }>(`/moderation/records/vban/${vban.id}`);
      expect(page.body.data.history).toEqual([{ at: expect.any(String), actor: expect.stringMatching(/^apikey:moderator-/), action: 'lifted', detail: 'Appeal accepted' }]);
      expect(page.body.data.record).toMatchObject({ liftedAt: lifted.body.data.liftedAt, liftedBy: lifted.body.data.liftedBy, liftConfirmedAt: reportedAt });

      expectError(await app.post(`/moderation/records/vban/${vban.id}/lift`, {}, { headers: operator }), 409, 'conflict');
      const gban = await communityBan(player.uuid, 'global', '2026-03-02T00:00:00Z');
      expectError(await app.post(`/moderation/records/gban/${gban}/lift`, {}, { headers: operator }), 409, 'conflict');
      expect((await get<{ history: unknown[] }>(`/moderation/records/gban/${gban}`)).body.data.history).toEqual([]);
    });

    it('two operators lifting at once: one wins, the other gets 409, one event and one entry', async () => {
      const player = newPlayer();
      const jail = await issue(player, 'jail', '2026-03-03T00:00:00Z');
      const before = await lastEventId();
      const other = { authorization: `Bearer ${admin.usertoken}` };
      const answers = await Promise.all([
        app.post(`/moderation/records/jail/${jail.id}/lift`, { reason: 'first' }, { headers: operator }),
        app.post(`/moderation/records/jail/${jail.id}/lift`, { reason: 'second' }, { headers: other }),
      ]);
      expect(answers.map((answer) => answer.status).sort()).toEqual([200, 409]);
      expect((await feedAfter(before)).filter((event) => event.data.punishment?.id === Number(jail.id))).toHaveLength(1);
      const history = (await get<{ history: Array<{ actor: string }> }>(`/moderation/records/jail/${jail.id}`)).body.data.history;
      expect(history).toHaveLength(1);
      expect(history[0].actor).toEqual(answers[0].status === 200 ? expect.stringMatching(/^apikey:moderator-/) : `club:${admin.mcid}`);
    });
  });

  describe('notes, evidence and history', () => {
    it('keeps one note per record (empty clears), takes PNG and refuses SVG, text and oversize with nothing written, removes, and records it all in order', async () => {
      const player = newPlayer();
      const mute = await issue(player, 'chatjail', '2026-02-01T00:00:00Z');
      const path = `/moderation/records/chatban/${mute.id}`;
      const note = (text: string): Promise<HttpResult> => app.request('PUT', `${path}/note`, { body: { note: text }, headers: operator });

      expect((await note('First note')).body).toMatchObject({ data: { note: 'First note' } });
      expect((await note('First note')).status).toBe(200);
      expectError(await note('x'.repeat(2001)), 400, 'invalid_request');
      expect((await note('x'.repeat(2000))).body).toMatchObject({ data: { note: 'x'.repeat(2000) } });

      const added = await upload(`${path}/evidence`, png, 'image/png');
      expect(added.status).toBe(201);
      const file = (added.body as { data: Record<string, unknown> }).data;
      expect(file).toEqual({
        name: expect.stringMatching(/^[0-9a-f]{32}\.png$/),
        contentType: 'image/png',
        size: expect.any(Number),
        width: 4,
        height: 3,
        addedBy: expect.stringMatching(/^apikey:moderator-/),
        addedAt: expect.any(String),
        url: `/evidence/${String(file.name)}`,
      });
      expect((await fetch(new URL(String(file.url), app.baseUrl))).status).toBe(200);

      const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="4" height="4"><rect width="4" height="4"/></svg>');
      expect((await upload(`${path}/evidence`, svg, 'image/svg+xml')).status).toBe(415);
      expect((await upload(`${path}/evidence`, svg, 'image/png')).status).toBe(415);
      expect((await upload(`${path}/evidence`, Buffer.from('just text'), 'text/plain')).status).toBe(415);
      const oversize = Buffer.concat([png, Buffer.alloc(5 * 1024 * 1024)]);
      expectError(await upload(`${path}/evidence`, oversize, 'image/png'), 413, 'payload_too_large');
      // A picture is a body only on the evidence route: elsewhere image/png is refused, and the global limit still holds.
      expectError(await app.request('PUT', `${path}/note`, { raw: 'PNG bytes would be here', contentType: 'image/png', headers: operator }), 400, 'invalid_request');
      expect((await app.request('PUT', `${path}/note`, { raw: JSON.stringify({ note: 'y'.repeat(70 * 1024) }), contentType: 'application/json', headers: operator })).status).toBe(413);

      expectError(await app.request('DELETE', `${path}/evidence/0123456789abcdef0123456789abcdef.png`, { headers: operator }), 404, 'not_found');
      const removed = await app.request('DELETE', `${path}/evidence/${String(file.name)}`, { headers: operator });
      expect(removed.body).toMatchObject({ data: { removed: true } });
      expect((await note('')).body).toMatchObject({ data: { note: null } });

      const page = await get<{ note: string | null; evidence: unknown[]; history: Array<{ action: string; detail: string | null; actor: string }>; record: Summary }>(path);
      expect(page.body.data.note).toBeNull();
      expect(page.body.data.evidence).toEqual([]);
      expect(page.body.data.record).toMatchObject({ hasNote: false, evidenceCount: 0 });
      expect(page.body.data.history.map((entry) => [entry.action, entry.detail])).toEqual([
        ['note', 'First note'],
        ['note', 'x'.repeat(2000)],
        ['evidence-added', file.name],
        ['evidence-removed', file.name],
        ['note', null],
      ]);

      // A club admin is named by game id.
      expect((await app.request('PUT', `${path}/note`, { body: { note: 'by admin' }, headers: { authorization: `Bearer ${admin.usertoken}` } })).status).toBe(200);
      const last = (await get<{ history: Array<{ actor: string }> }>(path)).body.data.history.at(-1);
      expect(last?.actor).toBe(`club:${admin.mcid}`);
    });
  });
});
