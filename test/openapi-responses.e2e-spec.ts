import Ajv2019, { type ValidateFunction } from 'ajv/dist/2019';
import { square } from './support/cities';
import { HttpResult, newPlayer, registerClubUser, TestApp } from './support/test-app';

/** An OpenAPI 3.0 schema object, as far as this test reads it. */
type Schema = { [keyword: string]: unknown; $ref?: string; nullable?: boolean };

interface Document {
  paths: Record<string, Record<string, { responses: Record<string, { content?: Record<string, { schema: Schema }> }> }>>;
  components: { schemas: Record<string, Schema> };
}

const DOCUMENT_ID = 'openapi.json';

/**
 * An OpenAPI 3.0 schema as JSON Schema 2019-09, for Ajv: `$ref`s point into the document's
 * components (added under `$defs`), `nullable` becomes "or null", and every place a value sits (a
 * response, a property, an item, a variant) gets `unevaluatedProperties: false`, so that a field
 * the document does not name fails, even when its schema is put together with `allOf` (a part of
 * an `allOf` is not such a place, or each part would refuse the others' fields).
 */
function jsonSchemaOf(schema: Schema, valuePlace: boolean): Schema {
  const converted: Schema = {};
  for (const [keyword, value] of Object.entries(schema)) {
    if (keyword === 'nullable') {
      continue;
    }
    if (keyword === '$ref') {
      converted.$ref = String(value).replace('#/components/schemas/', `${DOCUMENT_ID}#/$defs/`);
    } else if (keyword === 'properties') {
      converted.properties = Object.fromEntries(Object.entries(value as Record<string, Schema>).map(([name, property]) => [name, jsonSchemaOf(property, true)]));
    } else if (keyword === 'items' || (keyword === 'additionalProperties' && typeof value === 'object')) {
      converted[keyword] = jsonSchemaOf(value as Schema, true);
    } else if (keyword === 'oneOf' || keyword === 'anyOf' || keyword === 'allOf') {
      converted[keyword] = (value as Schema[]).map((part) => jsonSchemaOf(part, keyword !== 'allOf'));
    } else {
      converted[keyword] = value;
    }
  }
  if (valuePlace) {
    converted.unevaluatedProperties = false;
  }
  return schema.nullable ? { anyOf: [{ type: 'null' }, converted] } : converted;
}

/** Ajv over the document's components; OpenAPI's annotations are known keywords, its formats checked or named. */
function validatorsOf(document: Document): (schema: Schema) => ValidateFunction {
  // strictTypes off: `unevaluatedProperties` sits beside a `$ref` or an `allOf`, whose type Ajv does not infer.
  const ajv = new Ajv2019({ allErrors: true, strict: true, strictTypes: false });
  ajv.addVocabulary(['example']);
  ajv.addFormat('password', true);
  ajv.addFormat('date-time', /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/);
  ajv.addSchema({ $id: DOCUMENT_ID, $defs: Object.fromEntries(Object.entries(document.components.schemas).map(([name, schema]) => [name, jsonSchemaOf(schema, false)])) });
  return (schema) => ajv.compile(jsonSchemaOf(schema, true));
}

/** Every field a client reads is in the document: real answers of the main reads, checked against their schemas. */
describe('OpenAPI responses match the answers (e2e)', () => {
  let app: TestApp;
  let document: Document;
  let validatorOf: (schema: Schema) => ValidateFunction;
  const checked: string[] = [];

  beforeAll(async () => {
    app = await TestApp.start();
    document = (await app.get<Document>('/docs/openapi.json')).body;
    validatorOf = validatorsOf(document);
  });

  afterAll(async () => {
    await app.stop();
  });

  function expectDocumented(result: HttpResult, method: string, path: string): void {
    const schema = document.paths[path]?.[method]?.responses[String(result.status)]?.content?.['application/json']?.schema;
    expect({ path, status: result.status, documented: schema !== undefined }).toEqual({ path, status: result.status, documented: true });
    const validate = validatorOf(schema!);
    validate(result.body);
    // Where the answer and its schema disagree: a field the document does not name (a generated
    // client cannot see it), a required field the answer lacks, a value of the wrong type or form.
    const mismatches = (validate.errors ?? []).map((error) => `${method.toUpperCase()} ${path}${error.instancePath} ${error.message ?? ''} ${JSON.stringify(error.params)}`);
    expect(mismatches).toEqual([]);
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

  it('refuses an answer that strays from its schema, however deep or composed the place', async () => {
    const validate = validatorOf(document.paths['/cities'].get.responses['200'].content!['application/json'].schema);
    const answer = (await app.get<{ data: Array<Record<string, unknown> & { owner: Record<string, unknown> }> }>('/cities')).body;
    expect(answer.data.length).toBeGreaterThan(0);
    expect(validate(answer)).toBe(true);
    const strayed = (change: (copy: typeof answer) => void): boolean => {
      const copy = structuredClone(answer);
      change(copy);
      return validate(copy);
    };
    expect(strayed((copy) => Object.assign(copy, { undocumented: 1 }))).toBe(false); // beside allOf parts
    expect(strayed((copy) => Object.assign(copy.data[0], { undocumented: 1 }))).toBe(false); // in a oneOf variant's item
    expect(strayed((copy) => Object.assign(copy.data[0].owner, { undocumented: 1 }))).toBe(false); // behind allOf and $ref
    expect(strayed((copy) => delete copy.data[0].nameKana)).toBe(false); // a required field absent
    expect(strayed((copy) => (copy.data[0].count = '100'))).toBe(false); // the wrong type
    expect(strayed((copy) => (copy.data[0].name = null))).toBe(false); // null where not nullable
    expect(strayed((copy) => (copy.data[0].summary = null))).toBe(true); // null where nullable
    expect(strayed((copy) => (copy.data[0].createdAt = 'yesterday'))).toBe(true); // a string documented without a format
  });
});
