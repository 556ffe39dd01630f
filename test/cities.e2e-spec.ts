import { City } from '../src/cities/city.entity';
import { hashSecret } from '../src/common/secrets';
import { UserKey } from '../src/user-keys/user-key.entity';
import { cityFieldsFactory, type Corner, square } from './support/cities';
import { ClubUser, expectError, HttpResult, newPlayer, registerClubUser, TestApp } from './support/test-app';

const cityFields = cityFieldsFactory({
  name: 'City',
  kana: 'してぃ',
  kanaDigits: 'あいうえおかきくけこ',
  z: 0,
  extra: { summary: 'A test city', origin: 'Named in a test' },
});

interface Created {
  player: { uuid: string; mcid: string };
  userkey: string;
  result: HttpResult;
  cityId: number;
  requestId: number;
}

describe('cities (e2e)', () => {
  let app: TestApp;
  let gameServerKey: string;
  let operatorKey: string;
  let admin: ClubUser;
  let member: ClubUser;

  const asOperator = { headers: { 'x-api-key': '' } };

  async function create(fields: Record<string, unknown> = {}, player = newPlayer(), options = {}): Promise<Created> {
    const userkey = await app.issueUserKey(gameServerKey, player.uuid, player.mcid);
    const result = await app.post('/cities/create', { usertoken: userkey, ...cityFields(), ...fields }, options);
    return { player, userkey, result, cityId: result.body.cityId as number, requestId: result.body.requestId as number };
  }

  async function approve(type: string, cityId: number): Promise<HttpResult> {
    return app.post(`/cities/approval/${type}/${cityId}`, undefined, asOperator);
  }

  async function registered(fields: Record<string, unknown> = {}, player = newPlayer()): Promise<Created> {
    const created = await create(fields, player);
    expect(created.result.status).toBe(201);
    expect((await approve('create', created.cityId)).status).toBe(200);
    return created;
  }

  /** Read from the database: the user key exists and was not spent. */
  async function keyIsUnspent(userkey: string): Promise<boolean> {
    const key = await app.dataSource.getRepository(UserKey).findOne({ where: { keyHash: hashSecret(userkey) } });
    return key !== null && key.spentAt === null;
  }

  beforeAll(async () => {
    app = await TestApp.start();
    gameServerKey = await app.createApiKey(['game-server']);
    operatorKey = await app.createApiKey(['operator'], 'ops');
    asOperator.headers['x-api-key'] = operatorKey;
    admin = await registerClubUser(app, gameServerKey, { admin: true });
    member = await registerClubUser(app, gameServerKey);
  });

  afterAll(async () => {
    await app.stop();
  });

  describe('POST /cities/create', () => {
    it('files a pending create request (201) and spends the user key', async () => {
      const { result, userkey } = await create();
      expect(result.status).toBe(201);
      expect(result.body).toEqual({
        status: true,
        code: 201,
        version: 'test-build',
        requestId: expect.any(Number),
        request_id: result.body.requestId,
        cityId: expect.any(Number),
        requestStatus: 'pending',
      });
      expect(await keyIsUnspent(userkey)).toBe(false);
      const again = await app.post('/cities/create', { usertoken: userkey, ...cityFields() });
      expectError(again, 401, 'unauthorized');
    });

    it('keeps a pending city invisible to every read', async () => {
      const fields = cityFields();
      const { result, player, cityId } = await create(fields);
      expect(result.status).toBe(201);
      const list = await app.get<{ data: Array<{ id: number }> }>('/cities');
      expect(list.body.data.map((city) => city.id)).not.toContain(cityId);
      expectError(await app.get('/cities', { query: { id: cityId } }), 404, 'not_found');
      expectError(await app.get('/cities', { query: { name: fields.cityName as string } }), 404, 'not_found');
      expectError(await app.get(`/cities/${cityId}`), 404, 'not_found');
      const byOwner = await app.get(`/cities/${player.uuid}`);
      expect(byOwner.status).toBe(200);
      expect(byOwner.body.data).toEqual([]);
    });

    it('accepts a form body with corners as a JSON string and coordinates as strings', async () => {
      const fields = cityFields();
      const corners = (fields.corners as Corner[]).map((corner) => ({ id: corner.id, x: String(corner.x), z: String(corner.z) }));
      const player = newPlayer();
      const userkey = await app.issueUserKey(gameServerKey, player.uuid, player.mcid);
      const form = new URLSearchParams({
        usertoken: userkey,
        cityName: fields.cityName as string,
        cityNameKana: fields.cityNameKana as string,
        corners: JSON.stringify(corners),
        count: '100',
        recaptcha: 'pass',
      });
      const result = await app.request('POST', '/cities/create', { raw: form.toString(), contentType: 'application/x-www-form-urlencoded' });
      expect(result.status).toBe(201);
    });

    it('accepts a club token as usertoken (club site) and does not spend it', async () => {
      const club = await registerClubUser(app, gameServerKey);
      const result = await app.post('/cities/create', { usertoken: club.usertoken, ...cityFields() });
      expect(result.status).toBe(201);
      expect((await approve('create', result.body.cityId as number)).status).toBe(200);
      const city = await app.get(`/cities/${result.body.cityId as number}`);
      expect(city.body.data).toMatchObject({ owner: { uuid: club.uuid, mcid: club.mcid } });
      const me = await app.get('/club/@me', { query: { usertoken: club.usertoken } });
      expect(me.status).toBe(200);
    });

    it('accepts the user key as a Bearer header', async () => {
      const player = newPlayer();
      const userkey = await app.issueUserKey(gameServerKey, player.uuid, player.mcid);
      const result = await app.post('/cities/create', cityFields(), { headers: { authorization: `Bearer ${userkey}` } });
      expect(result.status).toBe(201);
    });

    it('answers 401 without a usertoken, for an unknown key and for a malformed one', async () => {
      expectError(await app.post('/cities/create', cityFields()), 401, 'unauthorized');
      expectError(await app.post('/cities/create', { usertoken: 'AbCdEfGhIj', ...cityFields() }), 401, 'unauthorized');
      expectError(await app.post('/cities/create', { usertoken: 'not-a-key!', ...cityFields() }), 401, 'unauthorized');
      expectError(await app.post('/cities/create', { usertoken: 'a'.repeat(32), ...cityFields() }), 401, 'unauthorized');
    });

    it.each<[string, Record<string, unknown>, string]>([
      ['a blank name', { cityName: '   ' }, 'cityName'],
      ['a 65-character name', { cityName: 'x'.repeat(65) }, 'cityName'],
      ['a missing name', { cityName: undefined }, 'cityName'],
      ['a kana reading with latin letters', { cityNameKana: 'chuo' }, 'cityNameKana'],
      ['a kana reading with kanji', { cityNameKana: '中央' }, 'cityNameKana'],
      ['a summary over 2,000 characters', { summary: 'x'.repeat(2001) }, 'summary'],
      ['an origin over 2,000 characters', { origin: 'x'.repeat(2001) }, 'origin'],
      ['remarks over 2,000 characters', { remarks: 'x'.repeat(2001) }, 'remarks'],
      ['three corners', { corners: square(0, 0).slice(0, 3) }, 'corners'],
      ['ids out of order', { corners: square(0, 0).map((corner, index) => ({ ...corner, id: [2, 1, 3, 4][index] })) }, 'corners'],
      ['a diagonal edge', { corners: [{ id: 1, x: 0, z: 0 }, { id: 2, x: 0, z: 9 }, { id: 3, x: 9, z: 10 }, { id: 4, x: 9, z: 0 }] }, 'corners'],
      ['a fractional coordinate', { corners: square(0, 0).map((corner) => ({ ...corner, x: Number(corner.x) + 0.5 })) }, 'corners'],
      ['a crossing outline', { corners: [[0, 0], [0, 10], [10, 10], [10, 4], [-4, 4], [-4, 6], [6, 6], [6, 0]].map(([x, z], i) => ({ id: i + 1, x, z })) }, 'corners'],
      ['corners that are not an array', { corners: 'nonsense' }, 'corners'],
      ['count without corners', { corners: undefined }, 'corners'],
      ['corners without count', { count: undefined }, 'count'],
      ['a wrong count', { count: 99 }, 'count'],
      ['a count that is not an integer', { count: 'many' }, 'count'],
      ['force that is not a boolean', { force: 'maybe' }, 'force'],
      ['a missing recaptcha', { recaptcha: undefined }, 'recaptcha'],
    ])('answers 400 naming the field for %s, and leaves the user key unspent', async (_label, fields, field) => {
      const { result, userkey } = await create(fields);
      expectError(result, 400, 'invalid_request');
      expect(result.body.details).toEqual(expect.arrayContaining([expect.objectContaining({ field })]));
      expect(await keyIsUnspent(userkey)).toBe(true);
      // The same key then works.
      const retry = await app.post('/cities/create', { usertoken: userkey, ...cityFields() });
      expect(retry.status).toBe(201);
    });

    it('gives the computed block count when count is wrong', async () => {
      const { result } = await create({ corners: square(0, 0), count: 5 });
      expectError(result, 400, 'invalid_request');
      expect(result.body.details).toEqual([{ field: 'count', message: expect.stringContaining('100'), message_ja: expect.any(String) }]);
    });

    it('answers captcha_failed for a rejected CAPTCHA and leaves the key unspent', async () => {
      const { result, userkey } = await create({ recaptcha: 'fail' });
      expectError(result, 400, 'captcha_failed');
      expect(await keyIsUnspent(userkey)).toBe(true);
    });

    it('needs a reason above CITY_BLOCK_LIMIT and refuses above CITY_BLOCK_MAX', async () => {
      // 501x501 = 251,001 blocks > 250,000.
      const big = { corners: square(-2_000_000, -2_000_000, 501), count: 501 * 501 };
      const noReason = await create(big);
      expectError(noReason.result, 400, 'invalid_request');
      expect(noReason.result.body.details).toEqual([{ field: 'reason', message: expect.any(String), message_ja: expect.any(String) }]);
      expectError((await create({ ...big, reason: '   ' })).result, 400, 'invalid_request');
      const withReason = await create({ ...big, reason: 'A large farming district' });
      expect(withReason.result.status).toBe(201);
      // 1582x1582 = 2,502,724 blocks > 2,500,000, even with a reason.
      const huge = await create({ corners: square(3_000_000, 3_000_000, 1582), count: 1582 * 1582, reason: 'Too big' });
      expectError(huge.result, 400, 'invalid_request');
      expect(huge.result.body.details).toEqual([{ field: 'count', message: expect.stringContaining('2500000'), message_ja: expect.any(String) }]);
    });

    describe('409 conflicts, each leaving the user key unspent', () => {
      it('refuses a name equal to a registered city after NFKC and case folding', async () => {
        const base = `Ｍｉｎａｔｏ ${Math.random().toString(36).slice(2, 6)}`;
        await registered({ cityName: base });
        const variant = base.normalize('NFKC').toUpperCase();
        const { result, userkey } = await create({ cityName: `  ${variant} ` });
        expectError(result, 409, 'conflict');
        expect(result.body.details).toEqual([{ field: 'cityName', message: expect.any(String), message_ja: expect.any(String) }]);
        expect(await keyIsUnspent(userkey)).toBe(true);
      });

      it('refuses a name or kana equal to a pending create', async () => {
        const first = cityFields();
        expect((await create(first)).result.status).toBe(201);
        expectError((await create({ cityName: first.cityName })).result, 409, 'conflict');
        const kana = await create({ cityNameKana: first.cityNameKana });
        expectError(kana.result, 409, 'conflict');
        expect(kana.result.body.details).toEqual([{ field: 'cityNameKana', message: expect.any(String), message_ja: expect.any(String) }]);
      });

      it('refuses a region overlapping a registered city by one boundary block, but not an adjacent one', async () => {
        const base = await registered({ corners: square(500_000, 0), count: 100 });
        expect(base.result.status).toBe(201);
        const sharing = await create({ corners: square(500_009, 9), count: 100 });
        expectError(sharing.result, 409, 'conflict');
        expect(sharing.result.body.details).toEqual([{ field: 'corners', message: expect.any(String), message_ja: expect.any(String) }]);
        expect(await keyIsUnspent(sharing.userkey)).toBe(true);
        expect((await create({ corners: square(500_010, 0), count: 100 })).result.status).toBe(201);
      });

      it('refuses a region overlapping a pending create or a pending region request', async () => {
        expect((await create({ corners: square(600_000, 0), count: 100 })).result.status).toBe(201);
        expectError((await create({ corners: square(600_005, 5), count: 100 })).result, 409, 'conflict');
        const city = await registered({ corners: square(610_000, 0), count: 100 });
        const owner = await registerClubUserFor(city.player);
        const moved = await app.request('PATCH', `/cities/edit/${city.cityId}`, {
          body: { usertoken: owner.usertoken, recaptcha: 'pass', corners: square(620_000, 0), count: 100 },
        });
        expect(moved.status).toBe(200);
        expectError((await create({ corners: square(620_009, 0), count: 100 })).result, 409, 'conflict');
      });

      it('lets interlocking L shapes through (bounding boxes overlap, regions do not)', async () => {
        const l = [[0, 0], [0, 10], [4, 10], [4, 4], [10, 4], [10, 0]].map(([x, z], i) => ({ id: i + 1, x: x + 700_000, z: z }));
        const notch = [[5, 5], [5, 12], [12, 12], [12, 0], [11, 0], [11, 5]].map(([x, z], i) => ({ id: i + 1, x: x + 700_000, z: z }));
        expect((await registered({ corners: l, count: 85 })).result.status).toBe(201);
        const interlocked = await create({ corners: notch, count: 8 * 8 + 2 * 5 });
        expect(interlocked.result.status).toBe(201);
      });

      it(`refuses a fourth city for one administrator, counting pending creates`, async () => {
        const player = newPlayer();
        await registered({}, player);
        expect((await create({}, player)).result.status).toBe(201);
        expect((await create({}, player)).result.status).toBe(201);
        const fourth = await create({}, player);
        expectError(fourth.result, 409, 'conflict');
        expect(await keyIsUnspent(fourth.userkey)).toBe(true);
      });
    });

    describe('force=true', () => {
      it('registers at once with an operator key; the request is recorded as approved', async () => {
        const fields = cityFields();
        const { result, cityId } = await create({ ...fields, force: true, apikey: operatorKey });
        expect(result.status).toBe(201);
        expect(result.body.requestStatus).toBe('approved');
        const city = await app.get(`/cities/${cityId}`);
        expect(city.status).toBe(200);
        const requests = await app.get<{ data: Array<{ id: number; status: string }> }>('/cities/requests', {
          query: { status: 'approved', cityId },
          ...asOperator,
        });
        expect(requests.body.data).toEqual([expect.objectContaining({ id: result.body.requestId, status: 'approved', type: 'create' })]);
      });

      it('accepts force as "true"/"1" and the key as X-API-Key', async () => {
        const { result } = await create({ force: '1' }, newPlayer(), asOperator);
        expect(result.status).toBe(201);
        expect(result.body.requestStatus).toBe('approved');
      });

      it('answers 401 without a key and 403 with a game-server key, leaving the user key unspent', async () => {
        const missing = await create({ force: true });
        expectError(missing.result, 401, 'unauthorized');
        expect(await keyIsUnspent(missing.userkey)).toBe(true);
        expectError((await create({ force: true, apikey: 'unknown-key' })).result, 401, 'unauthorized');
        const wrongScope = await create({ force: true, apikey: gameServerKey });
        expectError(wrongScope.result, 403, 'forbidden');
        expect(await keyIsUnspent(wrongScope.userkey)).toBe(true);
      });

      it('is a plain request with force=false', async () => {
        const { result } = await create({ force: false, apikey: operatorKey });
        expect(result.body.requestStatus).toBe('pending');
      });
    });
  });

  describe('reads', () => {
    let city: Created;
    let fields: Record<string, unknown>;

    beforeAll(async () => {
      fields = cityFields({ corners: square(-100, 200, 101), count: 101 * 101, reason: undefined, remarks: 'note' });
      fields.corners = (fields.corners as Corner[]).map((corner) => ({ ...corner, x: String(corner.x), z: String(corner.z) }));
      city = await registered(fields);
    });

    it('returns the city object', async () => {
      const result = await app.get(`/cities/${city.cityId}`);
      expect(result.status).toBe(200);
      expect(result.body.data).toEqual({
        id: city.cityId,
        name: fields.cityName,
        nameKana: fields.cityNameKana,
        summary: 'A test city',
        origin: 'Named in a test',
        regionName: null,
        corners: [
          { id: 1, x: '-100', z: '200' },
          { id: 2, x: '-100', z: '300' },
          { id: 3, x: '0', z: '300' },
          { id: 4, x: '0', z: '200' },
        ],
        count: 10201,
        reason: null,
        remarks: 'note',
        owner: { uuid: city.player.uuid, mcid: city.player.mcid, chatid: null },
        createdAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/),
        updatedAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/),
        // The earlier service's flat names, on the single-city reads.
        uuid: city.player.uuid,
        mcid: city.player.mcid,
        discordid: null,
        namekana: fields.cityNameKana,
        name_origin: 'Named in a test',
        regionname: null,
        blocknum: 10201,
      });
    });

    it('lists every registered city ordered by id', async () => {
      const result = await app.get<{ data: Array<{ id: number }> }>('/cities');
      expect(result.status).toBe(200);
      const ids = result.body.data.map((entry) => entry.id);
      expect(ids).toContain(city.cityId);
      expect([...ids].sort((a, b) => a - b)).toEqual(ids);
    });

    it('finds one city by ?id= and by ?name= (case-insensitive), 404 otherwise', async () => {
      expect((await app.get(`/cities`, { query: { id: city.cityId } })).body.data).toMatchObject({ id: city.cityId });
      const byName = await app.get('/cities', { query: { name: (fields.cityName as string).toUpperCase() } });
      expect(byName.body.data).toMatchObject({ id: city.cityId });
      expectError(await app.get('/cities', { query: { name: 'no such city anywhere' } }), 404, 'not_found');
      expectError(await app.get('/cities', { query: { id: 99999999 } }), 404, 'not_found');
      expectError(await app.get('/cities', { query: { id: 'abc' } }), 400, 'invalid_request');
    });

    it('tells /cities/{id} from /cities/{uuid}; anything else is 400', async () => {
      const byUuid = await app.get(`/cities/${city.player.uuid.toUpperCase()}`);
      expect(byUuid.status).toBe(200);
      expect(byUuid.body.data).toEqual([expect.objectContaining({ id: city.cityId })]);
      expect((await app.get(`/cities/${newPlayer().uuid}`)).body.data).toEqual([]);
      expectError(await app.get('/cities/99999999'), 404, 'not_found');
      expectError(await app.get('/cities/not-an-id'), 400, 'invalid_request');
      expect((await app.get(`/v1/cities/${city.cityId}`)).status).toBe(200);
    });

    it('lets a query id win over the path', async () => {
      const result = await app.get(`/cities/${newPlayer().uuid}`, { query: { id: city.cityId } });
      expect(result.body.data).toMatchObject({ id: city.cityId });
    });

    it('never reads the fixed routes as an id', async () => {
      const create = await app.get('/cities/create');
      expectError(create, 405, 'method_not_allowed');
      expect(create.headers.get('allow')).toBe('POST');
      expectError(await app.get('/cities/requests'), 401, 'unauthorized');
      expectError(await app.request('DELETE', '/cities/requests', asOperator), 405, 'method_not_allowed');
    });
  });

  describe('POST /cities/approval/{type}/{cityId}', () => {
    it('makes a pending create visible; a second approval is 404', async () => {
      const { cityId } = await create();
      const approved = await approve('create', cityId);
      expect(approved.status).toBe(200);
      expect(approved.body).toEqual({ status: true, code: 200, version: 'test-build' });
      expect((await app.get(`/cities/${cityId}`)).status).toBe(200);
      expectError(await approve('create', cityId), 404, 'not_found');
    });

    it('accepts a club admin token and refuses other credentials', async () => {
      const { cityId } = await create();
      expectError(await app.post(`/cities/approval/create/${cityId}`), 401, 'unauthorized');
      expectError(await app.post(`/cities/approval/create/${cityId}`, undefined, { headers: { 'x-api-key': gameServerKey } }), 403, 'forbidden');
      expectError(await app.post(`/cities/approval/create/${cityId}`, { usertoken: member.usertoken }), 403, 'forbidden');
      expectError(await app.post(`/cities/approval/create/${cityId}`, { usertoken: 'x'.repeat(32) }), 401, 'unauthorized');
      expect((await app.post(`/cities/approval/create/${cityId}`, { usertoken: admin.usertoken })).status).toBe(200);
    });

    it('answers 400 for an unknown type and 404 without a pending request of that type', async () => {
      const { cityId } = await create();
      expectError(await app.post(`/cities/approval/merge/${cityId}`, undefined, asOperator), 400, 'invalid_request');
      expectError(await approve('update', cityId), 404, 'not_found');
      expectError(await approve('create', 99999999), 404, 'not_found');
    });

    it('re-checks names on approval of an update: 409 and the request stays pending', async () => {
      const city = await registered();
      const owner = await registerClubUserFor(city.player);
      const wanted = `Wanted ${Math.random().toString(36).slice(2, 8)}`;
      const requested = await app.request('PATCH', `/cities/edit/${city.cityId}`, { body: { usertoken: owner.usertoken, recaptcha: 'pass', cityName: wanted } });
      expect(requested.status).toBe(200);
      // Names asked for in a pending update are not reserved: another city takes it meanwhile.
      expect((await registered({ cityName: wanted })).result.status).toBe(201);
      expectError(await approve('update', city.cityId), 409, 'conflict');
      const pending = await app.get<{ data: Array<{ id: number }> }>('/cities/requests', { query: { cityId: city.cityId, type: 'update' }, ...asOperator });
      expect(pending.body.data).toEqual([expect.objectContaining({ id: requested.body.requestId, status: 'pending' })]);
    });

    it('re-checks the region on approval: 409 when it now overlaps, and the request stays pending', async () => {
      const { cityId } = await create({ corners: square(800_000, 0), count: 100 });
      // A registered city moved onto the region behind the API's back (e.g. a data fix).
      const other = await registered({ corners: square(810_000, 0), count: 100 });
      await app.dataSource.getRepository(City).update({ id: other.cityId }, { corners: square(800_005, 0).map(({ x, z }) => ({ x: Number(x), z: Number(z) })), minX: 800_005, maxX: 800_014 });
      expectError(await approve('create', cityId), 409, 'conflict');
      const pending = await app.get<{ data: unknown[] }>('/cities/requests', { query: { cityId }, ...asOperator });
      expect(pending.body.data).toHaveLength(1);
      expectError(await app.get(`/cities/${cityId}`), 404, 'not_found');
    });
  });

  describe('POST /cities/reject/{type}/{requestId}', () => {
    it('rejects a create with a reason and frees its name and region', async () => {
      const fields = cityFields();
      const { cityId, requestId } = await create(fields);
      const rejected = await app.post(`/cities/reject/create/${requestId}`, { reason: 'Too close to spawn', 'cities.id': cityId }, asOperator);
      expect(rejected.status).toBe(200);
      const requests = await app.get<{ data: unknown[] }>('/cities/requests', { query: { status: 'rejected', cityId }, ...asOperator });
      expect(requests.body.data).toEqual([
        expect.objectContaining({ id: requestId, type: 'create', status: 'rejected', rejectReason: 'Too close to spawn', decidedAt: expect.any(String) }),
      ]);
      expectError(await app.get(`/cities/${cityId}`), 404, 'not_found');
      const again = await create({ cityName: fields.cityName, cityNameKana: fields.cityNameKana, corners: fields.corners, count: 100 });
      expect(again.result.status).toBe(201);
    });

    it('answers 404 for a wrong type, an unknown id or a request already decided', async () => {
      const { requestId } = await create();
      expectError(await app.post(`/cities/reject/update/${requestId}`, undefined, asOperator), 404, 'not_found');
      expectError(await app.post(`/cities/reject/create/99999999`, undefined, asOperator), 404, 'not_found');
      expect((await app.post(`/cities/reject/create/${requestId}`, undefined, asOperator)).status).toBe(200);
      expectError(await app.post(`/cities/reject/create/${requestId}`, undefined, asOperator), 404, 'not_found');
    });

    it('needs an operator key or a club admin token', async () => {
      const { requestId } = await create();
      expectError(await app.post(`/cities/reject/create/${requestId}`), 401, 'unauthorized');
      expectError(await app.post(`/cities/reject/create/${requestId}`, { usertoken: member.usertoken }), 403, 'forbidden');
      expect((await app.post(`/cities/reject/create/${requestId}`, { usertoken: admin.usertoken })).status).toBe(200);
    });

    it('rejects a region request: the city keeps its corners and the requested region is free again', async () => {
      const city = await registered({ corners: square(900_000, 0), count: 100 });
      const owner = await registerClubUserFor(city.player);
      const requested = await app.request('PATCH', `/cities/edit/${city.cityId}`, {
        body: { usertoken: owner.usertoken, recaptcha: 'pass', corners: square(910_000, 0), count: 100 },
      });
      expect(requested.status).toBe(200);
      expect((await app.post(`/cities/reject/region/${requested.body.requestId as number}`, undefined, asOperator)).status).toBe(200);
      const after = await app.get(`/cities/${city.cityId}`);
      expect(after.body.data).toMatchObject({ corners: [{ id: 1, x: '900000', z: '0' }, expect.anything(), expect.anything(), expect.anything()] });
      expect((await create({ corners: square(910_000, 0), count: 100 })).result.status).toBe(201);
    });
  });

  describe('DELETE /cities/{cityId}', () => {
    it('deletes a registered city, rejects its pending requests and frees name and region', async () => {
      const fields = cityFields();
      const city = await registered(fields);
      const owner = await registerClubUserFor(city.player);
      const requested = await app.request('PATCH', `/cities/edit/${city.cityId}`, { body: { usertoken: owner.usertoken, recaptcha: 'pass', summary: 'new' } });
      expect(requested.status).toBe(200);
      const deleted = await app.request('DELETE', `/cities/${city.cityId}`, asOperator);
      expect(deleted.status).toBe(200);
      expect(deleted.body).toEqual({ status: true, code: 200, version: 'test-build' });
      expectError(await app.get(`/cities/${city.cityId}`), 404, 'not_found');
      const rejected = await app.get('/cities/requests', { query: { status: 'rejected', cityId: city.cityId }, ...asOperator });
      expect(rejected.body.data).toEqual([expect.objectContaining({ id: requested.body.requestId, type: 'update', rejectReason: expect.any(String) })]);
      expect((await create({ cityName: fields.cityName, cityNameKana: fields.cityNameKana, corners: fields.corners, count: 100 })).result.status).toBe(201);
      expectError(await app.request('DELETE', `/cities/${city.cityId}`, asOperator), 404, 'not_found');
    });

    it('answers 404 for a pending create (it is rejected, not deleted) and for an unknown id', async () => {
      const { cityId } = await create();
      expectError(await app.request('DELETE', `/cities/${cityId}`, asOperator), 404, 'not_found');
      expectError(await app.request('DELETE', '/cities/99999999', asOperator), 404, 'not_found');
      expectError(await app.request('DELETE', '/cities/abc', asOperator), 400, 'invalid_request');
    });

    it('needs an operator key or a club admin token', async () => {
      const { cityId } = await registered();
      expectError(await app.request('DELETE', `/cities/${cityId}`), 401, 'unauthorized');
      expectError(await app.request('DELETE', `/cities/${cityId}`, { headers: { 'x-api-key': gameServerKey } }), 403, 'forbidden');
      expectError(await app.request('DELETE', `/cities/${cityId}`, { query: { usertoken: member.usertoken } }), 403, 'forbidden');
      expect((await app.request('DELETE', `/cities/${cityId}`, { query: { usertoken: admin.usertoken } })).status).toBe(200);
    });
  });

  describe('GET /cities/requests and /cities/{id}/history', () => {
    it('lists pending requests by default, filtered by type and city', async () => {
      const { cityId, requestId, player } = await create({ remarks: 'please' });
      const result = await app.get<{ data: unknown[] }>('/cities/requests', { query: { cityId }, ...asOperator });
      expect(result.status).toBe(200);
      expect(result.body.data).toEqual([
        {
          id: requestId,
          type: 'create',
          status: 'pending',
          cityId,
          city: { id: cityId, name: expect.any(String) },
          requester: { uuid: player.uuid, mcid: player.mcid },
          changes: expect.objectContaining({ cityName: expect.any(String), corners: expect.arrayContaining([{ id: 1, x: expect.any(String), z: '0' }]), count: 100 }),
          remarks: 'please',
          createdAt: expect.any(String),
          decidedAt: null,
          decidedBy: null,
          rejectReason: null,
        },
      ]);
      expect((await app.get<{ data: unknown[] }>('/cities/requests', { query: { cityId, type: 'region' }, ...asOperator })).body.data).toEqual([]);
      expectError(await app.get('/cities/requests', { query: { status: 'done' }, ...asOperator }), 400, 'invalid_request');
      expectError(await app.get('/cities/requests', { query: { usertoken: member.usertoken } }), 403, 'forbidden');
      expect((await app.get('/cities/requests', { query: { usertoken: admin.usertoken } })).status).toBe(200);
    });

    it('shows every state change of a city from the audit trail', async () => {
      const city = await registered();
      const owner = await registerClubUserFor(city.player);
      await app.request('PATCH', `/cities/edit/${city.cityId}`, { body: { usertoken: owner.usertoken, recaptcha: 'pass', summary: 'Changed' } });
      await approve('update', city.cityId);
      await app.request('PATCH', `/cities/edit/${city.cityId}`, { body: { usertoken: admin.usertoken, recaptcha: 'pass', origin: 'Fixed by admin' } });
      await app.request('DELETE', `/cities/${city.cityId}`, asOperator);
      const history = await app.get<{ data: Array<Record<string, unknown>> }>(`/cities/${city.cityId}/history`, asOperator);
      expect(history.status).toBe(200);
      expect(history.body.data.map((entry) => [entry.action, entry.actor])).toEqual([
        ['create_requested', `player:${city.player.uuid}`],
        ['create_approved', 'apikey:ops'],
        ['update_requested', `club:${city.player.uuid}`],
        ['update_approved', 'apikey:ops'],
        ['update_forced', `club:${admin.uuid}`],
        ['deleted', 'apikey:ops'],
      ]);
      const approved = history.body.data[3];
      expect(approved).toMatchObject({ before: { city: { summary: 'A test city' } }, after: { city: { summary: 'Changed' } }, at: expect.any(String) });
      expectError(await app.get(`/cities/${city.cityId}/history`), 401, 'unauthorized');
      expectError(await app.get(`/cities/${city.cityId}/history`, { query: { usertoken: member.usertoken } }), 403, 'forbidden');
      expectError(await app.get('/cities/99999999/history', asOperator), 404, 'not_found');
    });
  });

  it('describes every cities endpoint in the OpenAPI document', async () => {
    const document = await app.get<{ paths: Record<string, Record<string, unknown>>; components: { schemas: Record<string, { properties?: Record<string, unknown> }> } }>(
      '/docs/openapi.json',
    );
    expect(document.status).toBe(200);
    // The second release's fields are documented, and every schema a oneOf names exists.
    const { schemas } = document.body.components;
    expect(Object.keys(schemas.CityDoc.properties!)).toContain('regionName');
    expect(Object.keys(schemas.SingleCityDoc?.properties ?? {})).toEqual(expect.arrayContaining(['uuid', 'mcid', 'discordid', 'namekana', 'name_origin', 'regionname', 'blocknum']));
    expect(Object.keys(schemas.CityRequestDoc.properties!)).toEqual(expect.arrayContaining(['city', 'decidedBy']));
    expect(Object.keys(schemas.CreateCityResponseDoc.properties!)).toContain('request_id');
    expect(Object.keys(schemas.CityRequestListResponseDoc.properties!)).toContain('next');
    for (const reference of document.text.matchAll(/"#\/components\/schemas\/([A-Za-z]+)"/g)) {
      expect(schemas).toHaveProperty([reference[1]]);
    }
    const operations = Object.entries(document.body.paths)
      .filter(([path]) => path.startsWith('/cities'))
      .flatMap(([path, methods]) => Object.keys(methods).map((method) => `${method.toUpperCase()} ${path}`))
      .sort();
    expect(operations).toEqual(
      [
        'GET /cities',
        'GET /cities/requests',
        'GET /cities/requests/{requestId}/conflicts',
        'POST /cities/requests/{requestId}/withdraw',
        'POST /cities/create',
        'POST /cities/approval/{type}/{id}',
        'POST /cities/reject/{type}/{requestId}',
        'PATCH /cities/edit/{id}',
        'GET /cities/{id}/history',
        'GET /cities/{id}/shape.svg',
        'GET /cities/{id}',
        'DELETE /cities/{id}',
      ].sort(),
    );
  });

  /** A club account for a player who already has a user-key identity (the city administrator). */
  async function registerClubUserFor(player: { uuid: string; mcid: string }): Promise<ClubUser> {
    const userkey = await app.issueUserKey(gameServerKey, player.uuid, player.mcid);
    const registeredAccount = await app.post<{ usertoken: string }>('/club/register', { userkey, password: 'club-password-1', recaptcha: 'pass' });
    if (registeredAccount.status === 409) {
      const signedIn = await app.post<{ usertoken: string }>('/club/token', { username: player.uuid, password: 'club-password-1', recaptcha: 'pass' });
      return { ...player, usertoken: signedIn.body.usertoken };
    }
    expect(registeredAccount.status).toBe(201);
    return { ...player, usertoken: registeredAccount.body.usertoken };
  }
});
