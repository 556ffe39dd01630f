import { cityFieldsFactory, type NumericCorner as Corner, square } from './support/cities';
import { ClubUser, expectError, HttpResult, registerClubUser, RequestOptions, TestApp } from './support/test-app';

const cityFields = cityFieldsFactory({
  name: 'Ward',
  kana: 'わあど',
  kanaDigits: 'かきくけこさしすせそ',
  z: 0,
  extra: { summary: 'Ward summary', origin: 'Ward origin' },
});

type Json = Record<string, unknown>;
type Paged = { data: Json[]; next: number | null };

/** regionName, unchanged edit fields, own requests, withdraw, self-decision, paging, conflicts (docs/api.md, City rules). */
describe('cities: region names, requests, decisions and paging (e2e)', () => {
  let app: TestApp;
  let gameServerKey: string;
  let operatorKey: string;
  let admin: ClubUser;
  let otherAdmin: ClubUser;
  const asOperator = { headers: { 'x-api-key': '' } };

  /** A create request filed with a club token: the account's player becomes the administrator. */
  async function requestCity(owner: ClubUser, fields: Json = {}): Promise<{ cityId: number; requestId: number; fields: Json; result: HttpResult }> {
    const all = cityFields(fields);
    const result = await app.post('/cities/create', { usertoken: owner.usertoken, ...all });
    return { cityId: result.body.cityId as number, requestId: result.body.requestId as number, fields: all, result };
  }

  async function ownedCity(owner: ClubUser, fields: Json = {}): Promise<{ cityId: number; fields: Json }> {
    const created = await requestCity(owner, fields);
    expect(created.result.status).toBe(201);
    expect((await approve('create', created.cityId)).status).toBe(200);
    return created;
  }

  function approve(type: string, cityId: number, options: { usertoken?: string } = {}): Promise<HttpResult> {
    return options.usertoken ? app.post(`/cities/approval/${type}/${cityId}`, { usertoken: options.usertoken }) : app.post(`/cities/approval/${type}/${cityId}`, undefined, asOperator);
  }

  function edit(cityId: number, usertoken: string, changes: Json): Promise<HttpResult> {
    return app.request('PATCH', `/cities/edit/${cityId}`, { body: { usertoken, recaptcha: 'pass', ...changes } });
  }

  async function city(cityId: number): Promise<Json> {
    const result = await app.get<{ data: Json }>(`/cities/${cityId}`);
    expect(result.status).toBe(200);
    return result.body.data;
  }

  async function requestsOf(cityId: number, status = 'pending'): Promise<Json[]> {
    const result = await app.get<Paged>('/cities/requests', { query: { cityId, status }, ...asOperator });
    expect(result.status).toBe(200);
    return result.body.data;
  }

  beforeAll(async () => {
    app = await TestApp.start();
    gameServerKey = await app.createApiKey(['game-server']);
    operatorKey = await app.createApiKey(['operator'], 'ops');
    asOperator.headers['x-api-key'] = operatorKey;
    admin = await registerClubUser(app, gameServerKey, { admin: true });
    otherAdmin = await registerClubUser(app, gameServerKey, { admin: true });
  });

  afterAll(async () => {
    await app.stop();
  });

  describe('regionName', () => {
    it('is stored trimmed and lower-cased and shown in the city, the request and the audit trail', async () => {
      const owner = await registerClubUser(app, gameServerKey);
      const created = await requestCity(owner, { regionName: '  Ward_Region-1 ' });
      expect(created.result.status).toBe(201);
      expect((await requestsOf(created.cityId))[0]).toMatchObject({ changes: expect.objectContaining({ regionName: 'ward_region-1' }) });
      expect((await approve('create', created.cityId)).status).toBe(200);
      expect(await city(created.cityId)).toMatchObject({ regionName: 'ward_region-1', regionname: 'ward_region-1' });
      const list = await app.get<{ data: Json[] }>('/cities');
      expect(list.body.data.find((entry) => entry.id === created.cityId)).toMatchObject({ regionName: 'ward_region-1' });
      const history = await app.get<Paged>(`/cities/${created.cityId}/history`, asOperator);
      expect(history.body.data.at(-1)).toMatchObject({ action: 'create_approved', after: { city: expect.objectContaining({ regionName: 'ward_region-1' }) } });
    });

    it('means null when "" or absent on create', async () => {
      const owner = await registerClubUser(app, gameServerKey);
      const { cityId } = await ownedCity(owner, { regionName: '' });
      expect(await city(cityId)).toMatchObject({ regionName: null, regionname: null });
      expect((await requestsOf(cityId, 'approved'))[0].changes).not.toHaveProperty('regionName');
    });

    it.each([['with a space', 'ward one'], ['too long', 'a'.repeat(33)], ['not ASCII', 'ちゅうおう'], ['with a dot', 'ward.one'], ['blank after trimming', '   x y']])(
      'answers 400 on create and on edit for a region name %s',
      async (_label, regionName) => {
        const owner = await registerClubUser(app, gameServerKey);
        const created = await requestCity(owner, { regionName });
        expectError(created.result, 400, 'invalid_request');
        expect(created.result.body.details).toEqual([expect.objectContaining({ field: 'regionName' })]);
        const { cityId } = await ownedCity(owner);
        const edited = await edit(cityId, owner.usertoken, { regionName });
        expectError(edited, 400, 'invalid_request');
        expect(edited.body.details).toEqual([expect.objectContaining({ field: 'regionName', message_ja: expect.stringContaining('地域名') })]);
      },
    );

    it('is unique among registered cities and pending creates (409), freed by a rejection', async () => {
      const owner = await registerClubUser(app, gameServerKey);
      const first = await requestCity(owner, { regionName: 'unique-ward' });
      expect(first.result.status).toBe(201);
      const second = await requestCity(await registerClubUser(app, gameServerKey), { regionName: 'UNIQUE-WARD' });
      expectError(second.result, 409, 'conflict');
      expect(second.result.body.details).toEqual([expect.objectContaining({ field: 'regionName' })]);
      expect(second.result.body.message_ja).toBe('この地域名はすでに使われています。');
      expect((await app.post(`/cities/reject/create/${first.requestId}`, undefined, asOperator)).status).toBe(200);
      expect((await requestCity(await registerClubUser(app, gameServerKey), { regionName: 'unique-ward' })).result.status).toBe(201);
    });

    it('is an update change: set, checked against other cities, cleared with ""; never together with corners', async () => {
      const owner = await registerClubUser(app, gameServerKey);
      const { cityId, fields } = await ownedCity(owner);
      const { cityId: otherId } = await ownedCity(owner, { regionName: 'taken-ward' });
      const conflict = await edit(cityId, owner.usertoken, { regionName: 'Taken-Ward' });
      expectError(conflict, 409, 'conflict');
      expect(conflict.body.details).toEqual([expect.objectContaining({ field: 'regionName' })]);
      const withCorners = await edit(cityId, owner.usertoken, { regionName: 'new-ward', corners: square((fields.corners as Corner[])[0].x, 500, 5), count: 25 });
      expectError(withCorners, 400, 'invalid_request');
      expect(withCorners.body.details).toEqual([expect.objectContaining({ field: 'corners' })]);

      const set = await edit(cityId, owner.usertoken, { regionName: 'New-Ward' });
      expect(set.status).toBe(200);
      expect((await requestsOf(cityId))[0]).toMatchObject({ type: 'update', changes: { regionName: 'new-ward' } });
      expect((await approve('update', cityId)).status).toBe(200);
      expect(await city(cityId)).toMatchObject({ regionName: 'new-ward' });

      // A club admin clears it at once.
      const cleared = await edit(cityId, admin.usertoken, { regionName: '' });
      expect(cleared.status).toBe(200);
      expect(cleared.body.data).toMatchObject({ regionName: null });
      // The cleared id is free again for another city.
      expect((await edit(otherId, admin.usertoken, { regionName: 'new-ward' })).status).toBe(200);
    });

    it('is not reserved by a pending update: approval re-checks it (409, the request stays pending)', async () => {
      const owner = await registerClubUser(app, gameServerKey);
      const { cityId } = await ownedCity(owner);
      expect((await edit(cityId, owner.usertoken, { regionName: 'contested' })).status).toBe(200);
      expect((await requestCity(await registerClubUser(app, gameServerKey), { regionName: 'contested' })).result.status).toBe(201);
      expectError(await approve('update', cityId), 409, 'conflict');
      expect(await requestsOf(cityId)).toEqual([expect.objectContaining({ type: 'update', status: 'pending' })]);
    });
  });

  describe('edit fields equal to the current values', () => {
    it('drops every unchanged field: only the summary is requested', async () => {
      const owner = await registerClubUser(app, gameServerKey);
      const { cityId, fields } = await ownedCity(owner, { regionName: 'same-ward' });
      const result = await edit(cityId, owner.usertoken, { ...fields, cityName: `  ${fields.cityName as string} `, regionName: 'SAME-WARD', summary: 'Only this changes' });
      expect(result.status).toBe(200);
      expect(result.body.requestStatus).toBe('pending');
      const [request] = await requestsOf(cityId);
      expect(request).toMatchObject({ type: 'update' });
      expect(request.changes).toEqual({ summary: 'Only this changes' });
    });

    it('files a region request when only the corners differ (count and reason go with them)', async () => {
      const owner = await registerClubUser(app, gameServerKey);
      const { cityId, fields } = await ownedCity(owner);
      const start = (fields.corners as Corner[])[0];
      const result = await edit(cityId, owner.usertoken, { ...fields, corners: square(start.x, start.z, 12), count: 144 });
      expect(result.status).toBe(200);
      const [request] = await requestsOf(cityId);
      expect(request).toMatchObject({ type: 'region' });
      expect(request.changes).toEqual({ corners: square(start.x, start.z, 12).map((corner) => ({ id: corner.id, x: String(corner.x), z: String(corner.z) })), count: 144 });
    });

    it('drops equal corners with their count and reason, and treats "" as equal to a stored null', async () => {
      const owner = await registerClubUser(app, gameServerKey);
      const { cityId, fields } = await ownedCity(owner, { origin: '' });
      const result = await edit(cityId, owner.usertoken, { corners: fields.corners, count: 100, reason: 'same as before', origin: '', summary: 'Changed summary', remarks: 'note' });
      expect(result.status).toBe(200);
      const [request] = await requestsOf(cityId);
      expect(request).toMatchObject({ type: 'update' });
      expect(request.changes).toEqual({ summary: 'Changed summary', remarks: 'note' });
    });

    it('counts a case change of a name as a change', async () => {
      const owner = await registerClubUser(app, gameServerKey);
      const { cityId, fields } = await ownedCity(owner);
      expect((await edit(cityId, owner.usertoken, { cityName: (fields.cityName as string).toUpperCase() })).status).toBe(200);
      expect((await requestsOf(cityId))[0]).toMatchObject({ changes: { cityName: (fields.cityName as string).toUpperCase() } });
    });

    it('answers 400 when nothing but remarks is left, the same corners in another order are a change', async () => {
      const owner = await registerClubUser(app, gameServerKey);
      const { cityId, fields } = await ownedCity(owner);
      const unchanged = await edit(cityId, owner.usertoken, { ...fields, remarks: 'just a note' });
      expectError(unchanged, 400, 'invalid_request');
      expect(unchanged.body.details).toEqual([expect.objectContaining({ field: 'cityName' })]);
      expect(unchanged.body.message).toMatch(/every field equals the city's current value/);
      expect(unchanged.body.message_ja).toEqual(expect.stringContaining('変更された項目がありません'));
      const corners = fields.corners as Corner[];
      const rotated = [...corners.slice(1), corners[0]].map((corner, index) => ({ ...corner, id: index + 1 }));
      const result = await edit(cityId, owner.usertoken, { corners: rotated, count: 100 });
      expect(result.status).toBe(200);
      expect((await requestsOf(cityId))[0]).toMatchObject({ type: 'region' });
    });
  });

  describe('decisions by club admins', () => {
    it('forbids an admin to approve or reject their own create request; another admin or an operator may', async () => {
      const own = await requestCity(admin);
      expect(own.result.status).toBe(201);
      const denied = await approve('create', own.cityId, { usertoken: admin.usertoken });
      expectError(denied, 403, 'forbidden');
      expect(denied.body.message).toMatch(/another admin or an operator/);
      expect(denied.body.message_ja).toMatch(/ほかのクラブ管理者か運営者/);
      expectError(await app.post(`/cities/reject/create/${own.requestId}`, { usertoken: admin.usertoken }), 403, 'forbidden');
      expect((await approve('create', own.cityId, { usertoken: otherAdmin.usertoken })).status).toBe(200);
      expect((await requestsOf(own.cityId, 'approved'))[0]).toMatchObject({ decidedBy: `club:${otherAdmin.uuid}`, decidedAt: expect.any(String) });

      const second = await requestCity(admin);
      expect((await app.post(`/cities/reject/create/${second.requestId}`, { reason: 'no' }, asOperator)).status).toBe(200);
      expect((await requestsOf(second.cityId, 'rejected'))[0]).toMatchObject({ decidedBy: 'apikey:ops', rejectReason: 'no' });
    });

    it('forbids it for their own update and region requests too', async () => {
      const { cityId, fields } = await ownedCity(admin);
      expect((await edit(cityId, admin.usertoken, { summary: 'admin summary' })).status).toBe(200);
      const start = (fields.corners as Corner[])[0];
      expect((await edit(cityId, admin.usertoken, { corners: square(start.x, start.z, 11), count: 121 })).status).toBe(200);
      expectError(await approve('update', cityId, { usertoken: admin.usertoken }), 403, 'forbidden');
      expectError(await approve('region', cityId, { usertoken: admin.usertoken }), 403, 'forbidden');
      const [update, region] = await requestsOf(cityId);
      expect(update).toMatchObject({ type: 'update', decidedBy: null });
      expectError(await app.post(`/cities/reject/region/${region.id as number}`, { usertoken: admin.usertoken }), 403, 'forbidden');
      expect((await approve('update', cityId, { usertoken: otherAdmin.usertoken })).status).toBe(200);
      expect((await approve('region', cityId)).status).toBe(200);
      expect(await city(cityId)).toMatchObject({ summary: 'admin summary', count: 121 });
    });
  });

  describe('paging, history and request objects', () => {
    it('pages GET /cities/requests with limit, after and next', async () => {
      const owner = await registerClubUser(app, gameServerKey);
      const cities = [await ownedCity(owner), await ownedCity(owner), await ownedCity(owner)];
      const all = (await app.get<Paged>('/cities/requests', { query: { status: 'approved', type: 'create', limit: 500 }, ...asOperator })).body;
      expect(all.next).toBeNull();
      const ids = all.data.map((request) => request.id as number);
      expect([...ids].sort((a, b) => a - b)).toEqual(ids);
      expect(ids.length).toBeGreaterThanOrEqual(3);

      const first = (await app.get<Paged>('/cities/requests', { query: { status: 'approved', type: 'create', limit: 2 }, ...asOperator })).body;
      expect(first.data.map((request) => request.id)).toEqual(ids.slice(0, 2));
      expect(first.next).toBe(ids[1]);
      const rest = (await app.get<Paged>('/cities/requests', { query: { status: 'approved', type: 'create', limit: 500, after: first.next! }, ...asOperator })).body;
      expect(rest).toEqual({ status: true, code: 200, version: 'test-build', data: expect.any(Array), next: null });
      expect(rest.data.map((request) => request.id)).toEqual(ids.slice(2));
      const last = (await app.get<Paged>('/cities/requests', { query: { status: 'approved', type: 'create', limit: 1, after: ids.at(-2)! }, ...asOperator })).body;
      expect(last).toMatchObject({ data: [expect.objectContaining({ id: ids.at(-1) })], next: null });
      expect(cities.map((entry) => entry.cityId).every((cityId) => all.data.some((request) => request.cityId === cityId))).toBe(true);
    });

    it.each([
      ['limit', '0'],
      ['limit', '501'],
      ['limit', 'ten'],
      ['after', '-1'],
      ['after', '1.5'],
    ])('answers 400 for %s=%s on requests, history and own requests', async (name, value) => {
      const owner = await registerClubUser(app, gameServerKey);
      const { cityId } = await ownedCity(owner);
      for (const result of [
        await app.get('/cities/requests', { query: { [name]: value }, ...asOperator }),
        await app.get(`/cities/${cityId}/history`, { query: { [name]: value }, ...asOperator }),
        await app.get('/club/@me/requests', { query: { usertoken: owner.usertoken, [name]: value } }),
      ]) {
        expectError(result, 400, 'invalid_request');
        expect(result.body.details).toEqual([expect.objectContaining({ field: name, message_ja: expect.stringContaining(name === 'limit' ? '件数' : '開始位置') })]);
      }
    });

    it('pages the history; entries are {id, action, actor, requestId, before, after, at}', async () => {
      const owner = await registerClubUser(app, gameServerKey);
      const { cityId } = await ownedCity(owner);
      expect((await edit(cityId, owner.usertoken, { summary: 'one' })).status).toBe(200);
      expect((await approve('update', cityId)).status).toBe(200);
      const whole = (await app.get<Paged>(`/cities/${cityId}/history`, asOperator)).body;
      expect(whole.next).toBeNull();
      expect(whole.data.map((entry) => entry.action)).toEqual(['create_requested', 'create_approved', 'update_requested', 'update_approved']);
      for (const entry of whole.data) {
        expect(Object.keys(entry).sort()).toEqual(['action', 'actor', 'after', 'at', 'before', 'id', 'requestId']);
      }
      const page = (await app.get<Paged>(`/cities/${cityId}/history`, { query: { limit: 3 }, ...asOperator })).body;
      expect(page.data).toEqual(whole.data.slice(0, 3));
      expect(page.next).toBe(whole.data[2].id);
      const tail = (await app.get<Paged>(`/cities/${cityId}/history`, { query: { after: page.next! }, ...asOperator })).body;
      expect(tail).toMatchObject({ data: whole.data.slice(3), next: null });
    });

    it('gives each request its city: the requested name while a create is pending, the current name after', async () => {
      const owner = await registerClubUser(app, gameServerKey);
      const pending = await requestCity(owner);
      expect((await requestsOf(pending.cityId))[0]).toMatchObject({ cityId: pending.cityId, city: { id: pending.cityId, name: pending.fields.cityName } });
      const { cityId } = await ownedCity(owner);
      expect((await edit(cityId, admin.usertoken, { cityName: 'Renamed Ward Now' })).status).toBe(200);
      for (const request of await requestsOf(cityId, 'approved')) {
        expect(request.city).toEqual({ id: cityId, name: 'Renamed Ward Now' });
      }
    });
  });

  describe('GET /cities/requests/{requestId}/conflicts', () => {
    it('lists what approving a pending request would run into', async () => {
      const owner = await registerClubUser(app, gameServerKey);
      const { cityId } = await ownedCity(owner);
      expect((await edit(cityId, owner.usertoken, { cityName: 'Wanted Ward', cityNameKana: 'うぉんてっど', regionName: 'wanted-ward' })).status).toBe(200);
      const [update] = await requestsOf(cityId);
      const conflictsOf = (requestId: number, options: RequestOptions = asOperator): Promise<HttpResult<{ data: Json[] }>> =>
        app.get<{ data: Json[] }>(`/cities/requests/${requestId}/conflicts`, options);
      expect((await conflictsOf(update.id as number)).body.data).toEqual([]);

      const rival = await requestCity(await registerClubUser(app, gameServerKey), { cityName: 'WANTED WARD', cityNameKana: 'うぉんてっど', regionName: 'wanted-ward' });
      expect(rival.result.status).toBe(201);
      const conflicts = await conflictsOf(update.id as number);
      expect(conflicts.status).toBe(200);
      expect(conflicts.body.data).toEqual([
        { kind: 'name', cityId: rival.cityId, name: 'WANTED WARD' },
        { kind: 'kana', cityId: rival.cityId, name: 'WANTED WARD' },
        { kind: 'regionName', cityId: rival.cityId, name: 'WANTED WARD' },
      ]);
      expect((await conflictsOf(update.id as number, {})).status).toBe(401);
      expect((await app.get(`/cities/requests/${update.id as number}/conflicts`, { query: { usertoken: admin.usertoken } })).status).toBe(200);
      expectError(await app.get(`/cities/requests/${update.id as number}/conflicts`, { query: { usertoken: owner.usertoken } }), 403, 'forbidden');
      expect((await conflictsOf(rival.requestId)).body.data).toEqual([]);
      expectError(await conflictsOf(99999999), 404, 'not_found');
      expectError(await conflictsOf(0), 400, 'invalid_request');
      expect((await app.post(`/cities/reject/create/${rival.requestId}`, undefined, asOperator)).status).toBe(200);
      expectError(await conflictsOf(rival.requestId), 404, 'not_found');
      expect((await conflictsOf(update.id as number)).body.data).toEqual([]);
    });
  });

  describe('own requests and withdrawal', () => {
    it('lists the requests this account filed, every status, and only theirs', async () => {
      const owner = await registerClubUser(app, gameServerKey);
      const other = await registerClubUser(app, gameServerKey);
      const { cityId } = await ownedCity(owner);
      expect((await edit(cityId, owner.usertoken, { summary: 'mine' })).status).toBe(200);
      const rejected = await requestCity(owner);
      expect((await app.post(`/cities/reject/create/${rejected.requestId}`, undefined, asOperator)).status).toBe(200);
      await requestCity(other);

      const mine = await app.get<Paged>('/club/@me/requests', { query: { usertoken: owner.usertoken } });
      expect(mine.status).toBe(200);
      expect(mine.body.data.map((request) => [request.type, request.status])).toEqual([
        ['create', 'approved'],
        ['update', 'pending'],
        ['create', 'rejected'],
      ]);
      expect(mine.body.data.every((request) => (request.requester as Json).uuid === owner.uuid)).toBe(true);
      expect(mine.body.next).toBeNull();
      const paged = await app.get<Paged>('/v1/club/@me/requests', { headers: { authorization: `Bearer ${owner.usertoken}` }, query: { limit: 2 } });
      expect(paged.body).toMatchObject({ data: mine.body.data.slice(0, 2), next: mine.body.data[1].id });
      expectError(await app.get('/club/@me/requests'), 401, 'unauthorized');
    });

    it('withdraws an own pending create: rejected as "withdrawn", name and region freed', async () => {
      const owner = await registerClubUser(app, gameServerKey);
      const created = await requestCity(owner, { regionName: 'withdrawn-ward' });
      const notTheirs = await app.post(`/cities/requests/${created.requestId}/withdraw`, { usertoken: admin.usertoken });
      expectError(notTheirs, 403, 'forbidden');
      expect(notTheirs.body.message_ja).toBe('申請を取り下げられるのは、申請したご本人だけです。');
      const withdrawn = await app.post(`/cities/requests/${created.requestId}/withdraw`, { usertoken: owner.usertoken });
      expect(withdrawn.status).toBe(200);
      expect(withdrawn.body).toEqual({ status: true, code: 200, version: 'test-build' });
      expect((await requestsOf(created.cityId, 'rejected'))[0]).toMatchObject({ rejectReason: 'withdrawn', decidedBy: `club:${owner.uuid}` });
      const history = (await app.get<Paged>(`/cities/${created.cityId}/history`, asOperator)).body.data;
      expect(history.at(-1)).toMatchObject({ action: 'create_withdrawn', actor: `club:${owner.uuid}`, requestId: created.requestId });
      const again = await app.post('/cities/create', { usertoken: (await registerClubUser(app, gameServerKey)).usertoken, ...created.fields });
      expect(again.status).toBe(201);
      expectError(await app.post(`/cities/requests/${created.requestId}/withdraw`, { usertoken: owner.usertoken }), 404, 'not_found');
      expectError(await app.post('/cities/requests/99999999/withdraw', { usertoken: owner.usertoken }), 404, 'not_found');
      expectError(await app.post('/cities/requests/abc/withdraw', { usertoken: owner.usertoken }), 400, 'invalid_request');
      expectError(await app.post(`/cities/requests/${created.requestId}/withdraw`), 401, 'unauthorized');
    });

    it('withdraws an own region request: the city keeps its corners and the region is free again', async () => {
      const owner = await registerClubUser(app, gameServerKey);
      const { cityId, fields } = await ownedCity(owner);
      const start = (fields.corners as Corner[])[0];
      const wanted = square(start.x, 900, 10);
      const requested = await edit(cityId, owner.usertoken, { corners: wanted, count: 100 });
      expect(requested.status).toBe(200);
      expectError(await requestCity(await registerClubUser(app, gameServerKey), { corners: wanted }).then((created) => created.result), 409, 'conflict');
      expect((await app.post(`/cities/requests/${requested.body.requestId as number}/withdraw`, { usertoken: owner.usertoken })).status).toBe(200);
      expect(await city(cityId)).toMatchObject({ corners: [{ id: 1, x: String(start.x), z: String(start.z) }, expect.anything(), expect.anything(), expect.anything()] });
      expect((await requestCity(await registerClubUser(app, gameServerKey), { corners: wanted })).result.status).toBe(201);
    });
  });
});
