import { square } from './support/cities';
import { HttpResult, newPlayer, registerClubUser, TestApp } from './support/test-app';

type Schema = {
  $ref?: string;
  type?: string;
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  allOf?: Schema[];
  oneOf?: Schema[];
  anyOf?: Schema[];
  additionalProperties?: unknown;
  nullable?: boolean;
};

interface Document {
  paths: Record<string, Record<string, { responses: Record<string, { content?: Record<string, { schema: Schema }> }> }>>;
  components: { schemas: Record<string, Schema> };
}

/**
 * Where a real answer and its documented schema disagree: fields the document does not name (a
 * generated client cannot see them), required fields the answer lacks, values of the wrong type.
 */
function mismatches(document: Document, schema: Schema, value: unknown, at: string): string[] {
  if (schema.$ref) {
    return mismatches(document, document.components.schemas[schema.$ref.replace('#/components/schemas/', '')], value, at);
  }
  const variants = schema.oneOf ?? schema.anyOf;
  if (variants) {
    const results = variants.map((variant) => mismatches(document, variant, value, at));
    return results.find((result) => result.length === 0) ?? results.sort((a, b) => a.length - b.length)[0];
  }
  if (value === null) {
    return schema.nullable || schema.allOf?.some((part) => part.nullable) ? [] : [`${at}: null, not documented as nullable`];
  }
  if (schema.allOf) {
    // allOf of objects: the union of their properties describes the value.
    const merged: Schema = { type: 'object', properties: {}, required: [] };
    const resolve = (part: Schema): Schema => (part.$ref ? resolve(document.components.schemas[part.$ref.replace('#/components/schemas/', '')]) : part);
    for (const part of schema.allOf.map(resolve)) {
      if (!part.properties && !part.allOf) {
        return mismatches(document, part, value, at);
      }
      const inner = part.allOf ? part.allOf.map(resolve) : [part];
      for (const piece of inner) {
        Object.assign(merged.properties!, piece.properties ?? {});
        merged.required!.push(...(piece.required ?? []));
      }
    }
    return mismatches(document, merged, value, at);
  }
  if (Array.isArray(value)) {
    if (schema.type !== 'array') {
      return [`${at}: an array, documented as ${schema.type}`];
    }
    return value.flatMap((entry, index) => (schema.items ? mismatches(document, schema.items, entry, `${at}[${index}]`) : []));
  }
  if (typeof value === 'object' && value !== null) {
    if (schema.type !== 'object' && !schema.properties) {
      return [`${at}: an object, documented as ${schema.type}`];
    }
    if (!schema.properties) {
      return [];
    }
    const record = value as Record<string, unknown>;
    return [
      ...Object.keys(record)
        .filter((key) => !(key in schema.properties!) && schema.additionalProperties === undefined)
        .map((key) => `${at}.${key}: not documented`),
      ...(schema.required ?? []).filter((key) => !(key in record)).map((key) => `${at}.${key}: documented as required, absent`),
      ...Object.entries(record)
        .filter(([key]) => key in schema.properties!)
        .flatMap(([key, entry]) => mismatches(document, schema.properties![key], entry, `${at}.${key}`)),
    ];
  }
  const actual = typeof value === 'number' ? ['number', 'integer'] : [typeof value];
  return schema.type && !actual.includes(schema.type) ? [`${at}: ${typeof value}, documented as ${schema.type}`] : [];
}

/** Every field a client reads is in the document: real answers of the main reads, checked against their schemas. */
describe('OpenAPI responses match the answers (e2e)', () => {
  let app: TestApp;
  let document: Document;
  const checked: string[] = [];

  beforeAll(async () => {
    app = await TestApp.start();
    document = (await app.get<Document>('/docs/openapi.json')).body;
  });

  afterAll(async () => {
    await app.stop();
  });

  function expectDocumented(result: HttpResult, method: string, path: string): void {
    const schema = document.paths[path]?.[method]?.responses[String(result.status)]?.content?.['application/json']?.schema;
    expect({ path, status: result.status, documented: schema !== undefined }).toEqual({ path, status: result.status, documented: true });
    expect(mismatches(document, schema!, result.body, `${method.toUpperCase()} ${path}`)).toEqual([]);
    checked.push(`${method} ${path} ${result.status}`);
  }

  it('documents the fields of every answer a client reads', async () => {
    const gameServerKey = await app.createApiKey(['game-server']);
    const operator = { headers: { 'x-api-key': await app.createApiKey(['operator']) } };
    const user = await registerClubUser(app, gameServerKey);
    const bearer = { headers: { authorization: `Bearer ${user.usertoken}` } };
    const owner = newPlayer();
    await app.post('/game-server/logins', { logins: [{ uuid: owner.uuid, mcid: owner.mcid, loggedInAt: '2026-11-22T03:04:05.000Z', permission: 'default' }] }, { headers: { 'x-api-key': gameServerKey } });
    const userkey = await app.issueUserKey(gameServerKey, owner.uuid, owner.mcid);

    const created = await app.post<{ cityId: number }>(
      '/cities/create',
      { usertoken: userkey, cityName: 'Documented Town', cityNameKana: 'どきゅめんと', summary: 'A town', corners: square(3000, 3000), count: 100, recaptcha: 'pass', force: true },
      operator,
    );
    expectDocumented(created, 'post', '/cities/create');
    const id = created.body.cityId;
    const filed = await app.post('/cities/create', { usertoken: user.usertoken, cityName: 'Pending Town', cityNameKana: 'ぺんでぃんぐ', corners: square(6000, 6000), count: 100, recaptcha: 'pass' });
    expectDocumented(filed, 'post', '/cities/create');

    expectDocumented(await app.get('/cities'), 'get', '/cities');
    expectDocumented(await app.get('/cities', { query: { id } }), 'get', '/cities');
    expectDocumented(await app.get(`/cities/${id}`), 'get', '/cities/{id}');
    expectDocumented(await app.get(`/cities/${owner.uuid}`), 'get', '/cities/{id}');
    expectDocumented(await app.get('/cities/requests', { ...operator, query: { status: 'pending' } }), 'get', '/cities/requests');
    expectDocumented(await app.get(`/cities/${id}/history`, operator), 'get', '/cities/{id}/history');
    expectDocumented(await app.get('/club/@me', bearer), 'get', '/club/@me');
    expectDocumented(await app.post('/club/token', { username: user.mcid, password: 'club-password-1', recaptcha: 'pass' }), 'post', '/club/token');
    expectDocumented(await app.get('/users', { query: { uuid: owner.uuid } }), 'get', '/users');
    expectDocumented(await app.get(`/users/${owner.mcid}`), 'get', '/users/{identifier}');
    expectDocumented(await app.get(`/users/achievements/${owner.uuid}`), 'get', '/users/achievements/{uuid}');
    expectDocumented(await app.get('/users/banlist/sync/status', operator), 'get', '/users/banlist/sync/status');
    expectDocumented(await app.get('/health/ready'), 'get', '/health/ready');
    // Errors, with message_ja and details, are documented too.
    expectDocumented(await app.get('/cities/987654'), 'get', '/cities/{id}');
    expectDocumented(await app.post('/club/register', { userkey: 'x', password: 'short' }), 'post', '/club/register');
    expect(checked.length).toBe(17);
  });
});
