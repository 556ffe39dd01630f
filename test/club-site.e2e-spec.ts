import { square } from './support/cities';
import { HttpResult, newPlayer, TestApp } from './support/test-app';

type Json = Record<string, unknown>;

/**
 * The earlier club site (docs/club-site.md, The earlier club site) (a Vue 2 SPA) as a drop-in client. This replays its exact
 * requests — `JSON.stringify(...)` bodies sent with the form content type, `verificationCode` on
 * sign-up, the `/v1` prefix on some calls and not on others, credentials in the query string of a
 * public read — and checks the fields its pages read.
 */
describe('the earlier club site as a client (e2e)', () => {
  let app: TestApp;
  let gameServerKey: string;
  let operatorKey: string;

  /** How the site posts: a JSON text with the browser's default form content type. */
  function sitePost(method: 'POST' | 'PATCH', path: string, body: Json): Promise<HttpResult> {
    return app.request(method, path, { raw: JSON.stringify(body), contentType: 'application/x-www-form-urlencoded' });
  }

  beforeAll(async () => {
    app = await TestApp.start();
    gameServerKey = await app.createApiKey(['game-server']);
    operatorKey = await app.createApiKey(['operator'], 'ops');
  });

  afterAll(async () => {
    await app.stop();
  });

  it('signs up, signs in, requests a city and edits it (information, then region) as the site does', async () => {
    const player = newPlayer();
    const verificationCode = await app.issueUserKey(gameServerKey, player.uuid, player.mcid);

    // Sign-up page.
    const signUp = await sitePost('POST', '/v1/club/register', { verificationCode, password: 'site-password-1', recaptcha: 'pass' });
    expect(signUp.status).toBe(201);
    expect(signUp.body).toMatchObject({ status: true, usertoken: expect.stringMatching(/^[A-Za-z0-9]{32}$/) });

    // Sign-in page: a GET with the query string.
    const signIn = await app.get('/club/token', { query: { username: player.mcid, password: 'site-password-1', recaptcha: 'pass' } });
    expect(signIn.status).toBe(200);
    const usertoken = signIn.body.usertoken as string;

    // Account menu.
    const me = await app.get('/club/@me', { query: { usertoken } });
    expect(me.body.data).toMatchObject({ uuid: player.uuid, mcid: player.mcid, clubgroup: 'default' });

    // The player's city list: empty at first.
    expect((await app.get(`/v1/cities/${player.uuid}`)).body.data).toEqual([]);

    // City request page.
    const corners = square(3000, 3000, 10).map((corner) => ({ id: corner.id, x: String(corner.x), z: String(corner.z) }));
    const requested = await sitePost('POST', '/v1/cities/create', {
      usertoken,
      cityName: 'Old Site Town',
      cityNameKana: 'おーるどさいと',
      regionName: 'Old_Site_Town',
      summary: 'Made by the old site',
      origin: 'An old name',
      corners,
      count: 100,
      reason: '',
      remarks: '',
      recaptcha: 'pass',
    });
    expect(requested.status).toBe(201);
    // The page shows 「リクエストID：<request_id>」.
    expect(requested.body.request_id).toEqual(expect.any(Number));
    expect(requested.body.request_id).toBe(requested.body.requestId);
    const cityId = requested.body.cityId as number;
    expect((await app.post(`/cities/approval/create/${cityId}`, undefined, { headers: { 'x-api-key': operatorKey } })).status).toBe(200);

    // The edit page opens with GET /cities/{id}?usertoken=… and reads the flat names.
    const opened = await app.get<{ data: Json }>(`/cities/${cityId}`, { query: { usertoken } });
    expect(opened.status).toBe(200);
    const shown = opened.body.data;
    // It compares `uuid` with the account's uuid to allow editing.
    expect(shown.uuid).toBe((me.body.data as Json).uuid);
    expect(shown).toMatchObject({
      name: 'Old Site Town',
      namekana: 'おーるどさいと',
      regionname: 'old_site_town',
      name_origin: 'An old name',
      summary: 'Made by the old site',
      mcid: player.mcid,
      discordid: null,
      blocknum: 100,
      corners,
    });

    // It sends every field back; only the summary was changed.
    const everyField = {
      usertoken,
      cityName: shown.name,
      cityNameKana: shown.namekana,
      regionName: shown.regionname,
      summary: 'Summary changed on the old site',
      origin: shown.name_origin,
      recaptcha: 'pass',
    };
    const informationEdit = await sitePost('PATCH', `/v1/cities/edit/${cityId}`, everyField);
    expect(informationEdit.status).toBe(200);
    expect(informationEdit.body).toMatchObject({ requestStatus: 'pending', request_id: informationEdit.body.requestId });

    // A region change: every information field as it is, with new corners.
    const grown = square(3000, 3000, 12).map((corner) => ({ id: corner.id, x: String(corner.x), z: String(corner.z) }));
    const regionEdit = await sitePost('PATCH', `/v1/cities/edit/${cityId}`, { ...everyField, summary: shown.summary, corners: grown, count: 144, reason: '' });
    expect(regionEdit.status).toBe(200);
    expect(regionEdit.body).toMatchObject({ requestStatus: 'pending', request_id: regionEdit.body.requestId });

    const pending = await app.get<{ data: Json[] }>('/cities/requests', { query: { cityId }, headers: { 'x-api-key': operatorKey } });
    expect(pending.body.data.map((request) => [request.id, request.type, request.changes])).toEqual([
      [informationEdit.body.requestId, 'update', { summary: 'Summary changed on the old site' }],
      [regionEdit.body.requestId, 'region', { corners: grown, count: 144 }],
    ]);

    // After approval the player's city list shows the result.
    for (const type of ['update', 'region']) {
      expect((await app.post(`/cities/approval/${type}/${cityId}`, undefined, { headers: { 'x-api-key': operatorKey } })).status).toBe(200);
    }
    const list = await app.get<{ data: Json[] }>(`/cities/${player.uuid}`);
    expect(list.body.data).toEqual([expect.objectContaining({ id: cityId, summary: 'Summary changed on the old site', count: 144, nameKana: 'おーるどさいと', regionName: 'old_site_town' })]);
    // The flat names belong to the single-city reads only.
    expect(list.body.data[0]).not.toHaveProperty('namekana');
    const all = await app.get<{ data: Json[] }>('/cities');
    expect(all.body.data[0]).not.toHaveProperty('uuid');
    expect((await app.get<{ data: Json }>('/cities', { query: { name: 'old site town' } })).body.data).toMatchObject({ id: cityId, namekana: 'おーるどさいと', blocknum: 144 });
    expect((await app.get<{ data: Json }>('/v1/cities', { query: { id: cityId } })).body.data).toMatchObject({ uuid: player.uuid, regionname: 'old_site_town' });
  });
});
