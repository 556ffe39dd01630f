import { City } from '../src/cities/city.entity';
import { isUniqueViolation } from '../src/database/database-errors';
import { cityFieldsFactory, type NumericCorner as Corner, square } from './support/cities';
import { ClubUser, expectError, HttpResult, newPlayer, registerClubUser, TestApp } from './support/test-app';

const cityFields = cityFieldsFactory({ name: 'Town', kana: 'たうん', kanaDigits: 'さしすせそたちつてと', z: 50_000, extra: { summary: 'Original summary' } });

describe('cities: edit workflow and concurrency (e2e)', () => {
  let app: TestApp;
  let gameServerKey: string;
  let operatorKey: string;
  let admin: ClubUser;
  let stranger: ClubUser;
  const asOperator = { headers: { 'x-api-key': '' } };

  /** A registered city whose administrator is a club user (created with the club token). */
  async function ownedCity(owner: ClubUser, fields: Record<string, unknown> = {}): Promise<{ cityId: number; fields: Record<string, unknown> }> {
    const all = cityFields(fields);
    const created = await app.post('/cities/create', { usertoken: owner.usertoken, ...all });
    expect(created.status).toBe(201);
    const cityId = created.body.cityId as number;
    expect((await app.post(`/cities/approval/create/${cityId}`, undefined, asOperator)).status).toBe(200);
    return { cityId, fields: all };
  }

  /**
   * One after another: parallel POST /game-server/userkeys for different players can deadlock on
   * MariaDB (reported to the user-keys owner); the races under test are the creates, not the issues.
   */
  async function issueKeys(players: Array<{ uuid: string; mcid: string }>): Promise<string[]> {
    const keys: string[] = [];
    for (const player of players) {
      keys.push(await app.issueUserKey(gameServerKey, player.uuid, player.mcid));
    }
    return keys;
  }

  function edit(cityId: number | string, usertoken: string, changes: Record<string, unknown>): Promise<HttpResult> {
    return app.request('PATCH', `/cities/edit/${cityId}`, { body: { usertoken, recaptcha: 'pass', ...changes } });
  }

  async function city(cityId: number): Promise<Record<string, unknown>> {
    const result = await app.get<{ data: Record<string, unknown> }>(`/cities/${cityId}`);
    expect(result.status).toBe(200);
    return result.body.data;
  }

  beforeAll(async () => {
    app = await TestApp.start();
    gameServerKey = await app.createApiKey(['game-server']);
    operatorKey = await app.createApiKey(['operator']);
    asOperator.headers['x-api-key'] = operatorKey;
    admin = await registerClubUser(app, gameServerKey, { admin: true });
    stranger = await registerClubUser(app, gameServerKey);
  });

  afterAll(async () => {
    await app.stop();
  });

  describe('PATCH /cities/edit/{cityId}', () => {
    it('turns an administrator\'s change into a pending update request, applied on approval', async () => {
      const owner = await registerClubUser(app, gameServerKey);
      const { cityId } = await ownedCity(owner);
      const result = await edit(cityId, owner.usertoken, { summary: 'New summary', cityName: '  Renamed Town  ', remarks: 'typo' });
      expect(result.status).toBe(200);
      expect(result.body).toEqual({ status: true, code: 200, version: 'test-build', requestId: expect.any(Number), request_id: result.body.requestId, requestStatus: 'pending' });
      expect(await city(cityId)).toMatchObject({ summary: 'Original summary' });
      const requests = await app.get('/cities/requests', { query: { cityId }, ...asOperator });
      expect(requests.body.data).toEqual([
        expect.objectContaining({ type: 'update', changes: { summary: 'New summary', cityName: 'Renamed Town', remarks: 'typo' }, remarks: 'typo' }),
      ]);
      expect((await app.post(`/cities/approval/update/${cityId}`, undefined, asOperator)).status).toBe(200);
      expect(await city(cityId)).toMatchObject({ summary: 'New summary', name: 'Renamed Town', remarks: 'typo' });
      expect((await app.get('/cities', { query: { name: 'renamed town' } })).body.data).toMatchObject({ id: cityId });
    });

    it('files corners as a region request; approval replaces corners, count and reason', async () => {
      const owner = await registerClubUser(app, gameServerKey);
      const { cityId, fields } = await ownedCity(owner);
      const start = (fields.corners as Corner[])[0];
      // Grows the city by one block to each side: overlaps only its own current region.
      const grown = square(start.x - 1, start.z - 1, 12);
      const result = await edit(cityId, owner.usertoken, { corners: grown, count: 144, remarks: 'growing' });
      expect(result.status).toBe(200);
      expect(result.body.requestStatus).toBe('pending');
      expect((await city(cityId)).count).toBe(100);
      expect((await app.post(`/cities/approval/region/${cityId}`, undefined, asOperator)).status).toBe(200);
      expect(await city(cityId)).toMatchObject({ count: 144, corners: [{ id: 1, x: String(start.x - 1), z: String(start.z - 1) }, expect.anything(), expect.anything(), expect.anything()] });
    });

    it('applies at once when a club admin edits another administrator\'s city', async () => {
      const owner = await registerClubUser(app, gameServerKey);
      const { cityId } = await ownedCity(owner);
      const result = await edit(cityId, admin.usertoken, { origin: 'Corrected origin' });
      expect(result.status).toBe(200);
      expect(result.body).toEqual({
        status: true,
        code: 200,
        version: 'test-build',
        requestStatus: 'applied',
        data: expect.objectContaining({ id: cityId, origin: 'Corrected origin', owner: expect.objectContaining({ uuid: owner.uuid }) }),
      });
      expect(await city(cityId)).toMatchObject({ origin: 'Corrected origin' });
      const pending = await app.get<{ data: unknown[] }>('/cities/requests', { query: { cityId }, ...asOperator });
      expect(pending.body.data).toEqual([]);
    });

    it('applies a club admin\'s region change at once, still refusing overlaps', async () => {
      const owner = await registerClubUser(app, gameServerKey);
      const { cityId, fields } = await ownedCity(owner);
      const { fields: neighbour } = await ownedCity(owner);
      const touching = (neighbour.corners as Corner[]).map((corner) => ({ ...corner, x: corner.x - 9 }));
      expectError(await edit(cityId, admin.usertoken, { corners: touching, count: 100 }), 409, 'conflict');
      const start = (fields.corners as Corner[])[0];
      const moved = await edit(cityId, admin.usertoken, { corners: square(start.x, start.z + 500, 5), count: 25 });
      expect(moved.status).toBe(200);
      expect(moved.body.data).toMatchObject({ count: 25 });
    });

    it('makes a club admin editing their own city go through a request', async () => {
      const { cityId } = await ownedCity(admin);
      const result = await edit(cityId, admin.usertoken, { summary: 'Admin wants this' });
      expect(result.status).toBe(200);
      expect(result.body.requestStatus).toBe('pending');
      expect(await city(cityId)).toMatchObject({ summary: 'Original summary' });
    });

    it('allows one pending request per city and type (409), but an update and a region at once', async () => {
      const owner = await registerClubUser(app, gameServerKey);
      const { cityId, fields } = await ownedCity(owner);
      expect((await edit(cityId, owner.usertoken, { summary: 'first' })).status).toBe(200);
      expectError(await edit(cityId, owner.usertoken, { origin: 'second' }), 409, 'conflict');
      const start = (fields.corners as Corner[])[0];
      expect((await edit(cityId, owner.usertoken, { corners: square(start.x, start.z, 5), count: 25 })).status).toBe(200);
      expectError(await edit(cityId, owner.usertoken, { corners: square(start.x, start.z, 6), count: 36 }), 409, 'conflict');
      // After the decision a new request of that type is possible again.
      expect((await app.post(`/cities/approval/update/${cityId}`, undefined, asOperator)).status).toBe(200);
      expect((await edit(cityId, owner.usertoken, { origin: 'second' })).status).toBe(200);
    });

    it.each<[string, Record<string, unknown>, string]>([
      ['corners together with a name', { corners: square(0, 0), count: 100, cityName: 'X' }, 'corners'],
      ['corners together with a summary', { corners: square(0, 0), count: 100, summary: 'X' }, 'corners'],
      ['count without corners', { count: 100 }, 'count'],
      ['reason without corners', { summary: 'x', reason: 'because' }, 'reason'],
      ['corners without count', { corners: square(0, 0) }, 'count'],
      ['remarks alone', { remarks: 'just a note' }, 'cityName'],
      ['no change at all', {}, 'cityName'],
      ['a wrong count', { corners: square(0, 0), count: 1 }, 'count'],
      ['a kana reading with latin letters', { cityNameKana: 'abc' }, 'cityNameKana'],
      ['a blank name', { cityName: ' ' }, 'cityName'],
    ])('answers 400 for %s', async (_label, changes, field) => {
      const owner = await registerClubUser(app, gameServerKey);
      const { cityId } = await ownedCity(owner);
      const result = await edit(cityId, owner.usertoken, changes);
      expectError(result, 400, 'invalid_request');
      expect(result.body.details).toEqual(expect.arrayContaining([expect.objectContaining({ field })]));
    });

    it('answers 403 to someone who neither administers the city nor is a club admin', async () => {
      const owner = await registerClubUser(app, gameServerKey);
      const { cityId } = await ownedCity(owner);
      expectError(await edit(cityId, stranger.usertoken, { summary: 'mine now' }), 403, 'forbidden');
    });

    it('answers 404 for an unknown city and for a pending one, 401 without a valid token', async () => {
      expectError(await edit(99999999, admin.usertoken, { summary: 'x' }), 404, 'not_found');
      const owner = await registerClubUser(app, gameServerKey);
      const pending = await app.post('/cities/create', { usertoken: owner.usertoken, ...cityFields() });
      expectError(await edit(pending.body.cityId as number, owner.usertoken, { summary: 'x' }), 404, 'not_found');
      expectError(await app.request('PATCH', '/cities/edit/1', { body: { recaptcha: 'pass', summary: 'x' } }), 401, 'unauthorized');
      expectError(await edit(1, 'b'.repeat(32), { summary: 'x' }), 401, 'unauthorized');
    });

    it('verifies the CAPTCHA', async () => {
      const owner = await registerClubUser(app, gameServerKey);
      const { cityId } = await ownedCity(owner);
      const result = await app.request('PATCH', `/cities/edit/${cityId}`, { body: { usertoken: owner.usertoken, recaptcha: 'fail', summary: 'x' } });
      expectError(result, 400, 'captcha_failed');
      expectError(await app.request('PATCH', `/cities/edit/${cityId}`, { body: { usertoken: owner.usertoken, summary: 'x' } }), 400, 'invalid_request');
    });

    it('applies the name and region rules of create (409); the city\'s own name never conflicts', async () => {
      const owner = await registerClubUser(app, gameServerKey);
      const { cityId, fields } = await ownedCity(owner);
      const other = await ownedCity(await registerClubUser(app, gameServerKey));
      expectError(await edit(cityId, owner.usertoken, { cityName: (other.fields.cityName as string).toUpperCase() }), 409, 'conflict');
      expectError(await edit(cityId, owner.usertoken, { cityNameKana: other.fields.cityNameKana }), 409, 'conflict');
      expectError(await edit(cityId, owner.usertoken, { corners: other.fields.corners, count: 100 }), 409, 'conflict');
      expect((await edit(cityId, owner.usertoken, { cityName: (fields.cityName as string).toLowerCase() })).status).toBe(200);
    });
  });

  describe('concurrency', () => {
    it('gives exactly one 201 for ten parallel creates with one name by different players', async () => {
      const players = Array.from({ length: 10 }, () => newPlayer());
      const keys = await issueKeys(players);
      const name = `Contested ${Math.random().toString(36).slice(2, 8)}`;
      const results = await Promise.all(keys.map((usertoken) => app.post('/cities/create', { usertoken, ...cityFields({ cityName: name }) })));
      const statuses = results.map((result) => result.status).sort();
      expect(statuses).toEqual([201, ...Array<number>(9).fill(409)]);
    });

    it('gives exactly one 201 for parallel creates with one user key; the others get 401', async () => {
      const player = newPlayer();
      const usertoken = await app.issueUserKey(gameServerKey, player.uuid, player.mcid);
      const results = await Promise.all(Array.from({ length: 6 }, () => app.post('/cities/create', { usertoken, ...cityFields() })));
      const statuses = results.map((result) => result.status).sort();
      expect(statuses).toEqual([201, 401, 401, 401, 401, 401]);
    });

    it('gives exactly one 201 for parallel creates of overlapping regions with different names', async () => {
      const players = Array.from({ length: 6 }, () => newPlayer());
      const keys = await issueKeys(players);
      const results = await Promise.all(
        keys.map((usertoken, index) => app.post('/cities/create', { usertoken, ...cityFields({ corners: square(-900_000 + index, -900_000), count: 100 }) })),
      );
      expect(results.map((result) => result.status).sort()).toEqual([201, 409, 409, 409, 409, 409]);
    });

    it('holds the per-administrator limit under parallel creates', async () => {
      const owner = await registerClubUser(app, gameServerKey);
      const results = await Promise.all(Array.from({ length: 6 }, () => app.post('/cities/create', { usertoken: owner.usertoken, ...cityFields() })));
      expect(results.map((result) => result.status).sort()).toEqual([201, 201, 201, 409, 409, 409]);
    });

    it('keeps one pending request per city and type under parallel edits', async () => {
      const owner = await registerClubUser(app, gameServerKey);
      const { cityId } = await ownedCity(owner);
      const results = await Promise.all(Array.from({ length: 5 }, (_unused, index) => edit(cityId, owner.usertoken, { summary: `attempt ${index}` })));
      expect(results.map((result) => result.status).sort()).toEqual([200, 409, 409, 409, 409]);
    });

    it('has unique indexes on the name keys, not only a prior SELECT', async () => {
      const owner = await registerClubUser(app, gameServerKey);
      const { cityId } = await ownedCity(owner);
      const repository = app.dataSource.getRepository(City);
      const existing = await repository.findOneByOrFail({ id: cityId });
      const copy = { ...existing, id: undefined, corners: square(-5_000_000, 0).map(({ x, z }) => ({ x, z })), kanaKey: null };
      const error = await repository.insert(copy).then(
        () => undefined,
        (caught: unknown) => caught,
      );
      expect(isUniqueViolation(error)).toBe(true);
      const kanaCopy = { ...copy, nameKey: null, kanaKey: existing.kanaKey };
      const kanaError = await repository.insert(kanaCopy).then(
        () => undefined,
        (caught: unknown) => caught,
      );
      expect(isUniqueViolation(kanaError)).toBe(true);
    });
  });
});
