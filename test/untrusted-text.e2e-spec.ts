import { cityFieldsFactory } from './support/cities';
import { findAll, parseXml } from './support/svg';
import { expectError, type HttpResult, newPlayer, registerClubUser, TestApp } from './support/test-app';

const cityFields = cityFieldsFactory({ name: 'Text', kana: 'てきすと', kanaDigits: 'あいうえおかきくけこ', z: 0 });

// What no input may carry (SECURITY.md, untrusted text): lone surrogates and Unicode noncharacters.
const FORBIDDEN: Array<[string, string]> = [
  ['U+FFFE', '\uFFFE'],
  ['U+FFFF', '\uFFFF'],
  ['a lone high surrogate', '\uD800'],
  ['a lone low surrogate', '\uDFFF'],
  ['U+FDD0', '\uFDD0'],
];

/**
 * Lone surrogates and noncharacters are refused in every text an input carries, with 400 and
 * `message_ja`, and nothing is written; the SVG maps stay well-formed XML even when a name stored
 * before this check carries what XML forbids.
 */
describe('untrusted text (e2e)', () => {
  let app: TestApp;
  let gameServerKey: string;
  let operatorKey: string;
  const asOperator = () => ({ headers: { 'x-api-key': operatorKey } });

  beforeAll(async () => {
    app = await TestApp.start();
    gameServerKey = await app.createApiKey(['game-server']);
    operatorKey = await app.createApiKey(['operator']);
  });

  afterAll(async () => {
    await app.stop();
  });

  const count = async (table: string): Promise<number> => Number((await app.dataSource.query<Array<{ n: number | string }>>(`SELECT COUNT(*) AS n FROM ${table}`))[0].n);

  function expectRefused(result: HttpResult, field: string): void {
    const body = expectError(result, 400, 'invalid_request').body as { details: Array<{ field: string; message: string; message_ja: string }> };
    expect(body.details).toEqual([{ field, message: expect.stringContaining('cannot be stored'), message_ja: expect.stringContaining('保存できない文字') }]);
  }

  async function registered(fields: Record<string, unknown> = {}): Promise<HttpResult<{ cityId: number }>> {
    const player = newPlayer();
    const userkey = await app.issueUserKey(gameServerKey, player.uuid, player.mcid);
    return app.post<{ cityId: number }>('/cities/create', { usertoken: userkey, ...cityFields(), force: true, ...fields }, asOperator());
  }

  it.each(FORBIDDEN)('refuses %s in a city\'s texts; nothing is written', async (_label, char) => {
    const [cities, requests] = [await count('cities'), await count('city_requests')];
    for (const field of ['cityName', 'summary', 'remarks']) {
      expectRefused(await registered({ [field]: `Bad${char}Town` }), field);
    }
    expect([await count('cities'), await count('city_requests')]).toEqual([cities, requests]);
  });

  it('refuses them in a reject reason (the request stays pending) and a nickname', async () => {
    const owner = await registerClubUser(app, gameServerKey);
    const filed = await app.post<{ requestId: number }>('/cities/create', { usertoken: owner.usertoken, ...cityFields() });
    expect(filed.status).toBe(201);
    for (const [, char] of FORBIDDEN) {
      expectRefused(await app.post(`/cities/reject/create/${filed.body.requestId}`, { reason: `no${char}` }, asOperator()), 'reason');
    }
    const pending = await app.get<{ data: Array<{ id: number; status: string }> }>('/cities/requests', { query: { status: 'pending' }, ...asOperator() });
    expect(pending.body.data.map((request) => request.id)).toContain(filed.body.requestId);
    for (const [, char] of FORBIDDEN) {
      expectRefused(await app.post('/club/nickname', { usertoken: owner.usertoken, nickname: `Nick${char}`, recaptcha: 'pass' }), 'nickname');
    }
  });

  it('refuses them in achievement titles and descriptions from the game server, naming the item', async () => {
    const asServer = { headers: { 'x-api-key': gameServerKey } };
    const before = await count('achievements');
    expectRefused(await app.request('PUT', '/game-server/achievements', { body: { achievements: [{ id: 1, title: 'ok', description: 'ok' }, { id: 2, title: 'Bad\uFFFF', description: 'd' }] }, ...asServer }), 'achievements.1.title');
    expectRefused(await app.request('PUT', '/game-server/achievements', { body: { achievements: [{ id: 1, title: 't', description: 'half \uD83D' }] }, ...asServer }), 'achievements.0.description');
    expect(await count('achievements')).toBe(before);
  });

  it('accepts what is well-formed: emoji (surrogate pairs), U+FFFD, private use', async () => {
    expect((await registered({ cityName: `Smile 😀\uFFFD\uE000 ${Math.random().toString(36).slice(2, 6)}` })).status).toBe(201);
  });

  it('draws the maps as well-formed XML even for a name stored before the check', async () => {
    const created = await registered();
    expect(created.status).toBe(201);
    const id = created.body.cityId;
    // As a second-release database may hold it: U+FFFF, U+FFFE and a control character.
    await app.dataSource.query('UPDATE cities SET name = ? WHERE id = ?', [`Old\uFFFF\uFFFETown\u0001 ${id}`, id]);
    // A change through the API renews the cached city list the map is drawn from.
    expect((await registered()).status).toBe(201);

    const shape = await app.get(`/cities/${id}/shape.svg`);
    expect(shape.status).toBe(200);
    expect(() => parseXml(shape.text)).not.toThrow();
    const map = await app.get('/maps/cities.svg');
    expect(map.status).toBe(200);
    const polygon = findAll(parseXml(map.text), 'polygon').find((element) => element.attributes['data-city-id'] === String(id));
    expect(polygon?.attributes['data-name']).toBe(`OldTown ${id}`);
  });
});
