import { gunzipSync } from 'node:zlib';
import { ClubAccountsService } from '../src/club/club-accounts.service';
import { AppConfig } from '../src/config/app-config';
import { FakeBanlist, upstreamPlayer } from './support/fake-banlist';
import { expectError, newPlayer, registerClubUser, TestApp } from './support/test-app';
import { square } from './support/cities';

type CityList = { data: Array<{ id: number; name: string; owner: { uuid: string; mcid: string } }> };

let sequence = 0;
function cityBody(usertoken: string): Record<string, unknown> {
  sequence += 1;
  const x = sequence * 1000;
  return {
    usertoken,
    cityName: `Cached City ${sequence}`,
    cityNameKana: `きゃっしゅ${'あいうえおかきくけこ'[sequence % 10]}${'あいうえおかきくけこ'[Math.floor(sequence / 10) % 10]}`,
    summary: 'cache test',
    origin: 'cache test',
    corners: square(x, 0),
    count: 100,
    recaptcha: 'pass',
    force: true,
  };
}

/**
 * GET /cities is served from a pre-serialised cache: every write must be visible to the next
 * read, on this instance and on another one sharing the database.
 */
describe('GET /cities read cache (e2e)', () => {
  let app: TestApp;
  let other: TestApp;
  let gameServerKey: string;
  let operatorKey: string;

  beforeAll(async () => {
    app = await TestApp.start();
    other = await TestApp.start({}, { database: app.database, captcha: app.captcha });
    gameServerKey = await app.createApiKey(['game-server']);
    operatorKey = await app.createApiKey(['operator'], 'ops');
  });

  afterAll(async () => {
    await other.stop({ keepDatabase: true, keepCaptcha: true });
    await app.stop();
  });

  async function forceCreate(): Promise<number> {
    const player = newPlayer();
    const userkey = await app.issueUserKey(gameServerKey, player.uuid, player.mcid);
    const created = await app.post<{ cityId: number }>('/cities/create', cityBody(userkey), { headers: { 'x-api-key': operatorKey } });
    expect(created.status).toBe(201);
    return created.body.cityId;
  }

  const names = (list: CityList) => list.data.map((city) => city.name);

  it('shows a new city on the next read, here and on another instance', async () => {
    const before = await app.get<CityList>('/cities');
    expect(before.status).toBe(200);
    const id = await forceCreate();
    const here = await app.get<CityList>('/cities');
    const there = await other.get<CityList>('/cities');
    expect(here.body.data.map((city) => city.id)).toContain(id);
    expect(there.body.data.map((city) => city.id)).toContain(id);
    expect(here.body).toMatchObject({ status: true, code: 200, version: 'test-build' });
  });

  it("moves a vote rank cached on another instance on its next read once votes arrive here (the players site's info)", async () => {
    // Counts far above any other test's, so the two players are first and second on the site.
    const [leader, chaser] = [newPlayer(), newPlayer()];
    const vote = (uuid: string, id: string) => ({ id, uuid, site: 'minecraft.jp', votedAt: '2026-11-01T00:00:00Z' });
    const send = (votes: unknown[]) => app.post('/game-server/votes', { votes }, { headers: { 'x-api-key': gameServerKey } });
    const rankThere = async (uuid: string): Promise<number> => {
      const info = await other.get<{ mcjpVoteRank: number }>(`/v2/users/info/${uuid}`);
      expect(info.status).toBe(200);
      return info.body.mcjpVoteRank;
    };
    await app.post('/game-server/logins', { logins: [leader, chaser].map((player) => ({ ...player, loggedInAt: '2026-11-01T00:00:00Z' })) }, { headers: { 'x-api-key': gameServerKey } });
    expect((await send(Array.from({ length: 300 }, (_, i) => vote(leader.uuid, `${leader.uuid}-${i}`)))).status).toBe(200);
    expect((await send(Array.from({ length: 200 }, (_, i) => vote(chaser.uuid, `${chaser.uuid}-${i}`)))).status).toBe(200);
    expect(await rankThere(chaser.uuid)).toBe(2);
    expect((await send(Array.from({ length: 200 }, (_, i) => vote(chaser.uuid, `${chaser.uuid}-more-${i}`)))).status).toBe(200);
    expect(await rankThere(chaser.uuid)).toBe(1);
    expect(await rankThere(leader.uuid)).toBe(2);
  });

  it('answers If-None-Match with 304 until the list changes', async () => {
    await forceCreate();
    const first = await app.get('/cities');
    const etag = first.headers.get('etag');
    expect(etag).toMatch(/^".+"$/);
    const unchanged = await app.request('GET', '/cities', { headers: { 'if-none-match': etag! } });
    expect(unchanged.status).toBe(304);
    expect(unchanged.text).toBe('');
    await forceCreate();
    const changed = await app.request('GET', '/cities', { headers: { 'if-none-match': etag! } });
    expect(changed.status).toBe(200);
    expect(changed.headers.get('etag')).not.toBe(etag);
  });

  it('gzips the list for clients that accept it', async () => {
    for (let i = 0; i < 10; i += 1) {
      await forceCreate();
    }
    const response = await fetch(`${app.baseUrl}/cities`, { headers: { 'accept-encoding': 'gzip' } });
    expect(response.headers.get('content-encoding')).toBe('gzip');
    expect(response.headers.get('vary')).toMatch(/accept-encoding/i);
    // fetch decompresses transparently; the body is the same JSON.
    const list = (await response.json()) as CityList;
    expect(list.data.length).toBeGreaterThanOrEqual(10);
    const raw = await new Promise<Buffer>((resolve, reject) => {
      // node:http does not decompress, so this checks the bytes on the wire.
      void import('node:http').then(({ get }) =>
        get(`${app.baseUrl}/cities`, { headers: { 'accept-encoding': 'gzip' } }, (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () => resolve(Buffer.concat(chunks)));
        }).on('error', reject),
      );
    });
    expect(JSON.parse(gunzipSync(raw).toString('utf8'))).toEqual(list);
  });

  it('shows an admin edit and a delete on the next read', async () => {
    const id = await forceCreate();
    await app.get('/cities');
    const admin = await registerClubUser(app, gameServerKey, { admin: true });
    const edited = await app.request('PATCH', `/cities/edit/${id}`, { body: { usertoken: admin.usertoken, recaptcha: 'pass', cityName: `Renamed ${id}` } });
    expect(edited.status).toBe(200);
    expect(names((await other.get<CityList>('/cities')).body)).toContain(`Renamed ${id}`);
    const deleted = await other.request('DELETE', `/cities/${id}`, { headers: { 'x-api-key': operatorKey } });
    expect(deleted.status).toBe(200);
    expect((await app.get<CityList>('/cities')).body.data.map((city) => city.id)).not.toContain(id);
  });
});

describe('GET /cities read cache and player changes (e2e)', () => {
  let app: TestApp;
  let gameServerKey: string;
  let operatorKey: string;

  beforeAll(async () => {
    app = await TestApp.start();
    gameServerKey = await app.createApiKey(['game-server']);
    operatorKey = await app.createApiKey(['operator'], 'ops');
  });

  afterAll(async () => {
    await app.stop();
  });

  /** A new player with a city; `ownerOf()` reads the owner as GET /cities shows it. */
  async function cityOwner() {
    const player = newPlayer();
    const userkey = await app.issueUserKey(gameServerKey, player.uuid, player.mcid);
    const created = await app.post<{ cityId: number }>('/cities/create', cityBody(userkey), { headers: { 'x-api-key': operatorKey } });
    expect(created.status).toBe(201);
    const ownerOf = async () => (await app.get<{ data: Array<{ id: number; owner: { mcid: string; chatid: string | null } }> }>('/cities')).body.data.find((city) => city.id === created.body.cityId)?.owner;
    expect((await ownerOf())?.mcid).toBe(player.mcid);
    return { player, ownerOf };
  }

  it("shows the owner's new game id and chat id on the next read", async () => {
    const { player, ownerOf } = await cityOwner();

    const renamed = `${player.mcid.slice(0, 10)}_new`;
    const login = await app.post('/game-server/logins', { logins: [{ uuid: player.uuid, mcid: renamed, loggedInAt: new Date().toISOString() }] }, { headers: { 'x-api-key': gameServerKey } });
    expect(login.status).toBe(200);
    expect((await ownerOf())?.mcid).toBe(renamed);

    const linked = await app.request('PUT', `/game-server/chat-links/${player.uuid}`, { body: { chatid: '123456789012345678' }, headers: { 'x-api-key': gameServerKey } });
    expect(linked.status).toBe(200);
    expect((await ownerOf())?.chatid).toBe('123456789012345678');
  });

  it("does not rebuild the list for a login batch of players who own no city, but shows an owner's rename", async () => {
    const { CitiesListCache } = await import('../src/cities/cities-list.cache');
    const cache = app.app.get(CitiesListCache);
    const original = cache.get.bind(cache);
    let builds = 0;
    const spy = jest.spyOn(cache, 'get').mockImplementation((load) =>
      original(() => {
        builds += 1;
        return load();
      }),
    );
    try {
      const { player: owner, ownerOf } = await cityOwner();
      const builtBefore = builds;

      // A batch of players without cities (new ones, and the owner logging in under the same name).
      const others = [newPlayer(), newPlayer(), newPlayer()];
      const at = new Date().toISOString();
      const batch = await app.post(
        '/game-server/logins',
        { logins: [...others.map((player) => ({ uuid: player.uuid, mcid: player.mcid, loggedInAt: at })), { uuid: owner.uuid, mcid: owner.mcid, loggedInAt: at }] },
        { headers: { 'x-api-key': gameServerKey } },
      );
      expect(batch.status).toBe(200);
      expect((await app.get(`/users/${others[0].uuid}`)).status).toBe(200);
      expect((await ownerOf())?.mcid).toBe(owner.mcid);
      expect(builds).toBe(builtBefore);

      // The owner's rename is a real change: the next read shows it.
      const renamed = `${owner.mcid.slice(0, 10)}_ren`;
      const later = new Date(Date.now() + 1000).toISOString();
      const rename = await app.post('/game-server/logins', { logins: [{ uuid: owner.uuid, mcid: renamed, loggedInAt: later }] }, { headers: { 'x-api-key': gameServerKey } });
      expect(rename.status).toBe(200);
      expect((await ownerOf())?.mcid).toBe(renamed);
      expect(builds).toBe(builtBefore + 1);

      // Linking a non-owner's chat id leaves the list alone; the owner's shows.
      const linkOther = await app.request('PUT', `/game-server/chat-links/${others[1].uuid}`, { body: { chatid: '223456789012345678' }, headers: { 'x-api-key': gameServerKey } });
      expect(linkOther.status).toBe(200);
      expect((await ownerOf())?.chatid).toBeNull();
      expect(builds).toBe(builtBefore + 1);
      const linkOwner = await app.request('PUT', `/game-server/chat-links/${owner.uuid}`, { body: { chatid: '323456789012345678' }, headers: { 'x-api-key': gameServerKey } });
      expect(linkOwner.status).toBe(200);
      expect((await ownerOf())?.chatid).toBe('323456789012345678');
      expect(builds).toBe(builtBefore + 2);
    } finally {
      spy.mockRestore();
    }
  });
});

describe('hot reads see committed data only (e2e)', () => {
  let app: TestApp;

  beforeAll(async () => {
    app = await TestApp.start();
  });

  afterAll(async () => {
    await app.stop();
  });

  it('does not show a player whose login batch is still uncommitted, nor after it rolls back', async () => {
    const player = newPlayer();
    const { UnitOfWork } = await import('../src/database/unit-of-work');
    const unitOfWork = app.app.get(UnitOfWork);
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let inserted!: () => void;
    const insertDone = new Promise<void>((resolve) => (inserted = resolve));
    const transaction = unitOfWork
      .transaction(async (manager) => {
        // The DATETIME(3) text both drivers accept (better-sqlite3 cannot bind a Date).
        const now = new Date().toISOString().replace('T', ' ').replace('Z', '');
        await manager.run('INSERT INTO players (uuid, mcid, mcid_key, first_login, last_login, created_at) VALUES (?, ?, ?, ?, ?, ?)', [
          player.uuid,
          player.mcid,
          player.mcid.toLowerCase(),
          now,
          now,
          now,
        ]);
        inserted();
        await held;
        throw new Error('roll back');
      })
      .catch(() => undefined);
    await insertDone;
    expect((await app.get(`/users/${player.uuid}`)).status).toBe(404);
    release();
    await transaction;
    expect((await app.get(`/users/${player.uuid}`)).status).toBe(404);
  });
});

/**
 * The hot single reads (`/users/{x}`, `/cities/{id}`, `/cities/{uuid}`, `/users/banlist/{uuid}`,
 * `/club/@me`) are cached per key: every write must still show on the next read, on the instance
 * that cached it, when another instance sharing the database writes.
 */
describe('hot single reads are cached and see every write (e2e)', () => {
  const upstream = new FakeBanlist();
  let app: TestApp;
  let other: TestApp;
  let gameServerKey: string;
  let operatorKey: string;

  beforeAll(async () => {
    const url = await upstream.start();
    app = await TestApp.start({ BANLIST_SOURCE_URL: url, BANLIST_TIMEOUT_MS: '1000' });
    // The second instance writes through the CAPTCHA too: it gets the first one's stand-in.
    const captchaUrl = app.app.get(AppConfig).RECAPTCHA_VERIFY_URL;
    other = await TestApp.start({ BANLIST_SOURCE_URL: url, BANLIST_TIMEOUT_MS: '1000', RECAPTCHA_VERIFY_URL: captchaUrl }, { database: app.database, captcha: app.captcha });
    gameServerKey = await app.createApiKey(['game-server']);
    operatorKey = await app.createApiKey(['operator'], 'ops');
  });

  afterAll(async () => {
    await other.stop({ keepDatabase: true, keepCaptcha: true });
    await app.stop();
    await upstream.stop();
  });

  const login = (uuid: string, mcid: string, at = new Date()) =>
    other.post('/game-server/logins', { logins: [{ uuid, mcid, loggedInAt: at.toISOString() }] }, { headers: { 'x-api-key': gameServerKey } });

  it('shows a player logging in, renaming and linking a chat id on the next read (and twice in a row)', async () => {
    const player = newPlayer();
    const chatid = `4${String(Date.now()).padStart(17, '0')}`.slice(0, 18);
    for (const path of [`/users/${player.uuid}`, `/users/${player.mcid}`, `/users/${chatid}`]) {
      expect((await app.get(path)).status).toBe(404);
      expect((await app.get(path)).status).toBe(404);
    }
    expect((await login(player.uuid, player.mcid)).status).toBe(200);
    expect((await app.get<{ data: { mcid: string } }>(`/users/${player.uuid}`)).body.data.mcid).toBe(player.mcid);
    expect((await app.get<{ data: { uuid: string } }>(`/users/${player.mcid}`)).body.data.uuid).toBe(player.uuid);

    const renamed = `${player.mcid.slice(0, 10)}_rn`;
    expect((await login(player.uuid, renamed, new Date(Date.now() + 1000))).status).toBe(200);
    expect((await app.get<{ data: { mcid: string } }>(`/users/${player.uuid}`)).body.data.mcid).toBe(renamed);
    expect((await app.get(`/users/${player.mcid}`)).status).toBe(404);
    expect((await app.get<{ data: { uuid: string } }>(`/users/${renamed}`)).body.data.uuid).toBe(player.uuid);

    const linked = await other.request('PUT', `/game-server/chat-links/${player.uuid}`, { body: { chatid }, headers: { 'x-api-key': gameServerKey } });
    expect(linked.status).toBe(200);
    expect((await app.get<{ data: { uuid: string } }>(`/users/${chatid}`)).body.data.uuid).toBe(player.uuid);
    expect((await app.get<{ data: { chatid: string } }>(`/users/${player.uuid}`)).body.data.chatid).toBe(chatid);
  });

  it("shows a city's creation, edit, owner rename and deletion on the next read by id and by owner", async () => {
    const owner = newPlayer();
    const userkey = await other.issueUserKey(gameServerKey, owner.uuid, owner.mcid);
    expect((await app.get<{ data: unknown[] }>(`/cities/${owner.uuid}`)).body.data).toEqual([]);
    const created = await other.post<{ cityId: number }>('/cities/create', cityBody(userkey), { headers: { 'x-api-key': operatorKey } });
    expect(created.status).toBe(201);
    const id = created.body.cityId;
    expect((await app.get<{ data: Array<{ id: number }> }>(`/cities/${owner.uuid}`)).body.data.map((city) => city.id)).toEqual([id]);
    expect((await app.get<{ data: { id: number } }>(`/cities/${id}`)).body.data.id).toBe(id);

    const admin = await registerClubUser(other, gameServerKey, { admin: true });
    const edited = await other.request('PATCH', `/cities/edit/${id}`, { body: { usertoken: admin.usertoken, recaptcha: 'pass', cityName: `Cached ${id}` } });
    expect(edited.status).toBe(200);
    expect((await app.get<{ data: { name: string } }>(`/cities/${id}`)).body.data.name).toBe(`Cached ${id}`);
    expect((await app.get<{ data: Array<{ name: string }> }>(`/cities/${owner.uuid}`)).body.data[0]?.name).toBe(`Cached ${id}`);

    const renamed = `${owner.mcid.slice(0, 10)}_cr`;
    expect((await login(owner.uuid, renamed, new Date(Date.now() + 1000))).status).toBe(200);
    expect((await app.get<{ data: { owner: { mcid: string } } }>(`/cities/${id}`)).body.data.owner.mcid).toBe(renamed);

    const deleted = await other.request('DELETE', `/cities/${id}`, { headers: { 'x-api-key': operatorKey } });
    expect(deleted.status).toBe(200);
    expect((await app.get(`/cities/${id}`)).status).toBe(404);
    expect((await app.get<{ data: unknown[] }>(`/cities/${owner.uuid}`)).body.data).toEqual([]);
  });

  it('shows a ban-list sync on the next read', async () => {
    const player = newPlayer();
    expect((await login(player.uuid, player.mcid)).status).toBe(200);
    expect((await app.get(`/users/banlist/${player.uuid}`)).status).toBe(404);
    upstream.script(player.uuid, { status: 200, body: upstreamPlayer(player.uuid, player.mcid, 7, [{ banId: 9100 }]) });
    expect((await other.post('/users/banlist/sync', undefined, { headers: { 'x-api-key': operatorKey } })).status).toBe(200);
    const first = await app.get<{ data: { reputation: number; global: number } }>(`/users/banlist/${player.uuid}`);
    expect(first.status).toBe(200);
    expect(first.body.data.reputation).toBe(7);
    upstream.script(player.uuid, { status: 200, body: upstreamPlayer(player.uuid, player.mcid, 3, [{ banId: 9100 }, { banId: 9101 }]) });
    expect((await other.post('/users/banlist/sync', undefined, { headers: { 'x-api-key': operatorKey } })).status).toBe(200);
    const second = await app.get<{ data: { reputation: number; global: number } }>(`/users/banlist/${player.uuid}`);
    expect(second.body.data).toMatchObject({ reputation: 3, global: 2 });
  });

  it("shows a club account's nickname and group change and its logout on the next @me", async () => {
    const user = await registerClubUser(other, gameServerKey);
    const me = () => app.get<{ data: { nickname: string | null; clubgroup: string } }>('/club/@me', { query: { usertoken: user.usertoken } });
    expect((await me()).body.data.nickname).toBeNull();
    expect((await me()).body.data.nickname).toBeNull();
    expect((await other.post('/club/nickname', { usertoken: user.usertoken, nickname: 'Cached Nick', recaptcha: 'pass' })).status).toBe(200);
    expect((await me()).body.data.nickname).toBe('Cached Nick');
    await other.app.get(ClubAccountsService).setGroup(user.uuid, 'admin');
    expect((await me()).body.data.clubgroup).toBe('admin');
    expect((await other.post('/club/logout', { usertoken: user.usertoken })).status).toBe(200);
    expectError(await me(), 401, 'unauthorized');
  });
});
