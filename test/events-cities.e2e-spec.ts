import { cityFieldsFactory, square } from './support/cities';
import { FakeBanlist } from './support/fake-banlist';
import { ClubUser, expectError, HttpResult, registerClubUser, TestApp } from './support/test-app';
import { WebhookReceiver } from './support/webhook-receiver';

const cityFields = cityFieldsFactory({ name: 'Evt', kana: 'いべ', kanaDigits: 'あいうえおかきくけこ', z: 70_000, extra: { summary: 'First summary' } });
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

interface FeedEvent {
  id: number;
  type: string;
  at: string;
  data: { request?: Record<string, unknown> | null; city?: Record<string, unknown> | null; summary?: Record<string, unknown> };
}

describe('events of the cities workflow and the ban-list sync (e2e)', () => {
  let app: TestApp;
  const upstream = new FakeBanlist();
  let operator: { 'x-api-key': string };
  let gameServerKey: string;
  let owner: ClubUser;
  let admin: ClubUser;
  let cursor = 0;

  /** The events recorded since the last call (the test reads the feed like a consumer). */
  async function newEvents(): Promise<FeedEvent[]> {
    const page = await app.get<{ data: FeedEvent[]; next: number }>('/events', { query: { after: cursor, limit: 500 }, headers: operator });
    expect(page.status).toBe(200);
    cursor = page.body.next;
    return page.body.data;
  }

  const asOperator = (): { headers: Record<string, string> } => ({ headers: operator });
  const edit = (cityId: number, usertoken: string, changes: Record<string, unknown>): Promise<HttpResult> =>
    app.request('PATCH', `/cities/edit/${cityId}`, { body: { usertoken, recaptcha: 'pass', ...changes } });
  /** The city object the API serves (without the flat legacy names single-city reads add, docs/api.md, City rules). */
  const publicCity = async (cityId: number): Promise<Record<string, unknown>> => {
    const legacy = ['uuid', 'mcid', 'discordid', 'namekana', 'name_origin', 'regionname', 'blocknum'];
    const city = (await app.get<{ data: Record<string, unknown> }>(`/cities/${cityId}`)).body.data;
    return Object.fromEntries(Object.entries(city).filter(([name]) => !legacy.includes(name)));
  };
  const pendingRequest = async (cityId: number, type: string): Promise<Record<string, unknown>> => {
    const list = await app.get<{ data: Array<Record<string, unknown>> }>('/cities/requests', { query: { cityId, type }, ...asOperator() });
    return list.body.data[0];
  };

  beforeAll(async () => {
    const url = await upstream.start();
    app = await TestApp.start({ BANLIST_SOURCE_URL: url, BANLIST_TIMEOUT_MS: '1000', WEBHOOK_ALLOW_PRIVATE: 'true' });
    operator = { 'x-api-key': await app.createApiKey(['operator'], 'ops') };
    gameServerKey = await app.createApiKey(['game-server']);
    owner = await registerClubUser(app, gameServerKey);
    admin = await registerClubUser(app, gameServerKey, { admin: true });
    await app.request('PUT', `/game-server/chat-links/${owner.uuid}`, { body: { chatid: '223456789012345678' }, headers: { 'x-api-key': gameServerKey } });
    await newEvents();
  });

  afterAll(async () => {
    await app.stop();
    await upstream.stop();
  });

  it('create → created (the city as requested); approve → approved (the city after), with the request objects', async () => {
    const fields = cityFields();
    const created = await app.post<{ requestId: number; cityId: number }>('/cities/create', { usertoken: owner.usertoken, ...fields });
    expect(created.status).toBe(201);
    const { requestId, cityId } = created.body;
    const [filed, ...none] = await newEvents();
    expect(none).toEqual([]);
    expect(filed).toEqual({ id: expect.any(Number), type: 'city.request.created', at: expect.stringMatching(ISO), data: { request: expect.any(Object), city: expect.any(Object) } });
    expect(filed.data.request).toMatchObject({
      id: requestId,
      type: 'create',
      status: 'pending',
      cityId,
      requester: { uuid: owner.uuid, mcid: owner.mcid },
      changes: { cityName: fields.cityName, cityNameKana: fields.cityNameKana, count: 100 },
      decidedAt: null,
      decidedBy: null,
      rejectReason: null,
    });
    expect(filed.data.city).toMatchObject({ id: cityId, name: fields.cityName, summary: 'First summary', count: 100, owner: { uuid: owner.uuid, mcid: owner.mcid, chatid: '223456789012345678' } });

    expect((await app.post(`/cities/approval/create/${cityId}`, undefined, asOperator())).status).toBe(200);
    const [approved, ...rest] = await newEvents();
    expect(rest).toEqual([]);
    expect(approved.type).toBe('city.request.approved');
    expect(approved.id).toBe(filed.id + 1);
    expect(approved.data.request).toMatchObject({ id: requestId, status: 'approved', decidedBy: 'apikey:ops', decidedAt: expect.stringMatching(ISO) });
    // The event's city is the city object the API now serves.
    expect(approved.data.city).toEqual(await publicCity(cityId));
  });

  it('an update request → created with the city as requested; approval → approved; a rejected region request → rejected with the current city', async () => {
    const owner = await registerClubUser(app, gameServerKey);
    const created = await app.post<{ cityId: number }>('/cities/create', { usertoken: owner.usertoken, ...cityFields() });
    const { cityId } = created.body;
    await app.post(`/cities/approval/create/${cityId}`, undefined, asOperator());
    await newEvents();
    const before = await publicCity(cityId);

    const filed = await edit(cityId, owner.usertoken, { summary: 'Second summary', remarks: 'please' });
    expect(filed.status).toBe(200);
    const [updateFiled] = await newEvents();
    expect(updateFiled.type).toBe('city.request.created');
    expect(updateFiled.data.request).toMatchObject({ id: filed.body.requestId, type: 'update', status: 'pending', changes: { summary: 'Second summary', remarks: 'please' } });
    expect(updateFiled.data.city).toMatchObject({ id: cityId, summary: 'Second summary', remarks: 'please', name: before.name });
    // Only requested: the public city is unchanged.
    expect(await publicCity(cityId)).toEqual(before);

    expect((await app.post(`/cities/approval/update/${cityId}`, undefined, asOperator())).status).toBe(200);
    const [updateApproved] = await newEvents();
    expect(updateApproved).toMatchObject({ type: 'city.request.approved', data: { request: { id: filed.body.requestId, status: 'approved' } } });
    expect(updateApproved.data.city).toEqual(await publicCity(cityId));

    const region = await edit(cityId, owner.usertoken, { corners: square(900_000, 70_000, 20), count: 400 });
    expect(region.status).toBe(200);
    const [regionFiled] = await newEvents();
    expect(regionFiled.data.city).toMatchObject({ count: 400, corners: [{ id: 1, x: '900000', z: '70000' }, expect.any(Object), expect.any(Object), expect.any(Object)] });
    const requestId = region.body.requestId as number;
    expect((await app.post(`/cities/reject/region/${requestId}`, { reason: 'Too close to the spawn' }, asOperator())).status).toBe(200);
    const [rejected, ...rest] = await newEvents();
    expect(rest).toEqual([]);
    expect(rejected.type).toBe('city.request.rejected');
    expect(rejected.data.request).toMatchObject({ id: requestId, type: 'region', status: 'rejected', rejectReason: 'Too close to the spawn', decidedBy: 'apikey:ops' });
    expect(rejected.data.city).toEqual(await publicCity(cityId));
  });

  it('a rejected create → rejected with city null; a club admin\'s rejection names the admin', async () => {
    const owner = await registerClubUser(app, gameServerKey);
    const created = await app.post<{ requestId: number }>('/cities/create', { usertoken: owner.usertoken, ...cityFields() });
    await newEvents();
    const requestId = created.body.requestId;
    expect((await app.post(`/cities/reject/create/${requestId}`, { usertoken: admin.usertoken, reason: 'Name unclear' })).status).toBe(200);
    const [rejected, ...rest] = await newEvents();
    expect(rest).toEqual([]);
    expect(rejected).toMatchObject({ type: 'city.request.rejected', data: { city: null, request: { id: requestId, type: 'create', status: 'rejected', rejectReason: 'Name unclear', decidedBy: `club:${admin.uuid}` } } });
  });

  it('a withdrawn request → rejected with rejectReason "withdrawn" (city null for a create, the current city otherwise)', async () => {
    const owner = await registerClubUser(app, gameServerKey);
    const created = await app.post<{ requestId: number; cityId: number }>('/cities/create', { usertoken: owner.usertoken, ...cityFields() });
    await newEvents();
    expect((await app.post(`/cities/requests/${created.body.requestId}/withdraw`, { usertoken: owner.usertoken })).status).toBe(200);
    const [withdrawnCreate, ...none] = await newEvents();
    expect(none).toEqual([]);
    expect(withdrawnCreate).toMatchObject({
      type: 'city.request.rejected',
      data: { city: null, request: { id: created.body.requestId, type: 'create', status: 'rejected', rejectReason: 'withdrawn', decidedBy: `club:${owner.uuid}` } },
    });

    const registered = await app.post<{ cityId: number }>('/cities/create', { usertoken: owner.usertoken, ...cityFields() });
    await app.post(`/cities/approval/create/${registered.body.cityId}`, undefined, asOperator());
    const filed = await edit(registered.body.cityId, owner.usertoken, { regionName: 'evt-region', summary: 'Maybe' });
    const [asRequested] = await newEvents().then((events) => events.slice(-1));
    expect(asRequested.data.city).toMatchObject({ regionName: 'evt-region', summary: 'Maybe' });
    expect((await app.post(`/cities/requests/${filed.body.requestId as number}/withdraw`, { usertoken: owner.usertoken })).status).toBe(200);
    const [withdrawnUpdate] = await newEvents();
    expect(withdrawnUpdate.data.request).toMatchObject({ id: filed.body.requestId, type: 'update', rejectReason: 'withdrawn' });
    expect(withdrawnUpdate.data.city).toEqual(await publicCity(registered.body.cityId));
    expect(withdrawnUpdate.data.city).toMatchObject({ regionName: null });
  });

  it('a club admin\'s direct edit → city.changed with request null and the city after', async () => {
    const owner = await registerClubUser(app, gameServerKey);
    const created = await app.post<{ cityId: number }>('/cities/create', { usertoken: owner.usertoken, ...cityFields() });
    const { cityId } = created.body;
    await app.post(`/cities/approval/create/${cityId}`, undefined, asOperator());
    await newEvents();
    const applied = await edit(cityId, admin.usertoken, { origin: 'Named after the river' });
    expect(applied.body).toMatchObject({ requestStatus: 'applied' });
    const [changed, ...rest] = await newEvents();
    expect(rest).toEqual([]);
    expect(changed).toMatchObject({ type: 'city.changed', data: { request: null } });
    expect(changed.data.city).toEqual(await publicCity(cityId));
    expect(changed.data.city).toMatchObject({ origin: 'Named after the river' });
  });

  it('a forced create → created, then approved', async () => {
    const fields = cityFields();
    const userkey = await app.issueUserKey(gameServerKey, admin.uuid, admin.mcid);
    const created = await app.post<{ requestId: number; cityId: number; requestStatus: string }>('/cities/create', { usertoken: userkey, force: true, ...fields }, asOperator());
    expect(created.body.requestStatus).toBe('approved');
    const events = await newEvents();
    expect(events.map((event) => event.type)).toEqual(['city.request.created', 'city.request.approved']);
    expect(events[1].id).toBe(events[0].id + 1);
    for (const event of events) {
      expect(event.data.request).toMatchObject({ id: created.body.requestId, type: 'create', status: 'approved', decidedBy: 'apikey:ops' });
      expect(event.data.city).toMatchObject({ id: created.body.cityId, name: fields.cityName });
    }
  });

  it('delete → each pending request rejected, then city.deleted with the city as it was', async () => {
    const owner = await registerClubUser(app, gameServerKey);
    const created = await app.post<{ cityId: number }>('/cities/create', { usertoken: owner.usertoken, ...cityFields() });
    const { cityId } = created.body;
    await app.post(`/cities/approval/create/${cityId}`, undefined, asOperator());
    const pending = await edit(cityId, owner.usertoken, { summary: 'Never applied' });
    await newEvents();
    const asItWas = await publicCity(cityId);
    expect((await app.request('DELETE', `/cities/${cityId}`, asOperator())).status).toBe(200);
    const events = await newEvents();
    expect(events.map((event) => event.type)).toEqual(['city.request.rejected', 'city.deleted']);
    expect(events[0].data.request).toMatchObject({ id: pending.body.requestId, status: 'rejected', rejectReason: 'The city was deleted.' });
    expect(events[0].data.city).toEqual(asItWas);
    expect(events[1].data).toEqual({ request: null, city: asItWas });
  });

  it('a refused change (400, 401, 403, 404, 409) records no event', async () => {
    const owner = await registerClubUser(app, gameServerKey);
    const fields = cityFields();
    const created = await app.post<{ cityId: number }>('/cities/create', { usertoken: owner.usertoken, ...fields });
    const { cityId } = created.body;
    await app.post(`/cities/approval/create/${cityId}`, undefined, asOperator());
    await edit(cityId, owner.usertoken, { summary: 'Pending change' });
    await newEvents();
    const stranger = await registerClubUser(app, gameServerKey);

    expectError(await app.post('/cities/create', { usertoken: owner.usertoken, ...cityFields({ cityName: fields.cityName }) }), 409, 'conflict');
    expectError(await app.post('/cities/create', { usertoken: owner.usertoken, ...cityFields({ count: 99 }) }), 400, 'invalid_request');
    expectError(await app.post('/cities/create', { usertoken: 'ABCDEFGHIJ', ...cityFields() }), 401, 'unauthorized');
    expectError(await edit(cityId, owner.usertoken, { summary: 'Second pending change' }), 409, 'conflict');
    expectError(await edit(cityId, stranger.usertoken, { summary: 'Not mine' }), 403, 'forbidden');
    expectError(await edit(cityId, owner.usertoken, { corners: square(0, 0), count: 5 }), 400, 'invalid_request');
    expectError(await app.post(`/cities/approval/region/${cityId}`, undefined, asOperator()), 404, 'not_found');
    expectError(await app.post('/cities/reject/create/999999', undefined, asOperator()), 404, 'not_found');
    expectError(await app.request('DELETE', '/cities/999999', asOperator()), 404, 'not_found');
    expect(await newEvents()).toEqual([]);

    // An approval that became a conflict meanwhile: 409, the request stays pending, no event.
    const wanted = `Wanted ${Math.random().toString(36).slice(2, 8)}`;
    expect((await edit(cityId, owner.usertoken, {})).status).toBe(400);
    const mine = await app.post<{ cityId: number }>('/cities/create', { usertoken: owner.usertoken, ...cityFields() });
    await app.post(`/cities/approval/create/${mine.body.cityId}`, undefined, asOperator());
    expect((await edit(mine.body.cityId, owner.usertoken, { cityName: wanted })).status).toBe(200);
    const theirs = await app.post<{ cityId: number }>('/cities/create', { usertoken: stranger.usertoken, ...cityFields() });
    await app.post(`/cities/approval/create/${theirs.body.cityId}`, undefined, asOperator());
    expect((await edit(theirs.body.cityId, admin.usertoken, { cityName: wanted })).body).toMatchObject({ requestStatus: 'applied' });
    await newEvents();
    expectError(await app.post(`/cities/approval/update/${mine.body.cityId}`, undefined, asOperator()), 409, 'conflict');
    expect(await newEvents()).toEqual([]);
    expect(await pendingRequest(mine.body.cityId, 'update')).toMatchObject({ status: 'pending' });
  });

  it('a finished ban-list run → banlist.sync.finished with the run summary', async () => {
    const summary = await app.post<Record<string, unknown>>('/users/banlist/sync', undefined, asOperator());
    expect(summary.status).toBe(200);
    const [finished, ...rest] = await newEvents();
    expect(rest).toEqual([]);
    expect(finished.type).toBe('banlist.sync.finished');
    const fields = Object.fromEntries(Object.entries(summary.body).filter(([name]) => !['status', 'code', 'version'].includes(name)));
    expect(finished.data).toEqual({ summary: fields });
    expect(fields).toMatchObject({ players: expect.any(Number), updated: expect.any(Number), failed: 0, removedBans: 0 });
  });

  it('a JSON webhook receives the workflow events exactly as the feed serves them', async () => {
    const receiver = await WebhookReceiver.start();
    const owner = await registerClubUser(app, gameServerKey);
    try {
      const hook = await app.post<{ data: { id: number } }>('/webhooks', { url: receiver.url, events: ['city.request.created', 'city.request.approved'] }, asOperator());
      expect(hook.status).toBe(201);
      const created = await app.post<{ cityId: number }>('/cities/create', { usertoken: owner.usertoken, ...cityFields() });
      await app.post(`/cities/approval/create/${created.body.cityId}`, undefined, asOperator());
      const events = await newEvents();
      const requests = await receiver.waitFor(2);
      expect(requests.map((request) => JSON.parse(request.body) as unknown)).toEqual(events);
      expect(requests.map((request) => request.headers['x-community-event'])).toEqual(['city.request.created', 'city.request.approved']);
      await app.request('DELETE', `/webhooks/${hook.body.data.id}`, asOperator());
    } finally {
      await receiver.stop();
    }
  });
});
