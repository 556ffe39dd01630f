import { expectError, HttpResult, registerClubUser, RequestOptions, TestApp } from './support/test-app';

interface Operation {
  method: string;
  path: string;
  /** Parameter names the endpoint documents (query and body), plus the credential names. */
  params: string[];
}

interface OpenApiSchema {
  $ref?: string;
  properties?: Record<string, unknown>;
  allOf?: OpenApiSchema[];
}

interface OpenApiDocument {
  paths: Record<string, Record<string, { parameters?: Array<{ in: string; name: string }>; requestBody?: { content?: Record<string, { schema?: OpenApiSchema }> } }>>;
  components: { schemas: Record<string, OpenApiSchema> };
}

const CREDENTIAL_PARAMS = ['usertoken', 'apikey', 'userkey', 'recaptcha'];

/** Malformed values, each sent for every parameter of an endpoint at once. */
const HOSTILE: Record<string, unknown> = {
  object: { nested: { deeper: [1, { x: 'y' }] } },
  'long array': Array.from({ length: 5000 }, (_, index) => index),
  'array of objects': Array.from({ length: 50 }, () => ({ id: 'x', x: {}, z: [] })),
  'huge number': 1e308,
  'negative number': -2147483649,
  float: 0.5,
  boolean: true,
  null: null,
  'empty string': '',
  whitespace: ' \t\r\n\u3000 ',
  'oversize string': 'x'.repeat(60_000),
  unicode: '𝕳𝖊𝖑𝖑𝖔 🏙️‍🔥 ｶﾀｶﾅ \u202eRTL\u202c مرحبا \ud800',
  'NUL bytes': 'abc\u0000def\u0000',
  'SQL-like': "1' OR '1'='1'; DROP TABLE players; --",
  'SQL-like numeric': '1 OR 1=1',
  'format and template': '%s%n%x ${7*7} {{7*7}} <script>alert(1)</script>',
  'prototype key': JSON.parse('{"__proto__": {"polluted": "yes"}}') as unknown,
  'constructor.prototype': { constructor: { prototype: { polluted: 'yes' } } },
  'path traversal': '../../../../etc/passwd',
};

/** What a hostile value looks like as a path segment or query value (strings as they are, others as JSON). */
function asText(value: unknown, maxLength: number): string {
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  // A lone surrogate cannot travel in a URL (JSON bodies carry it as \ud800): replace it as toWellFormed() would.
  return text.slice(0, maxLength).replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '\ufffd');
}

function resolveProperties(document: OpenApiDocument, schema: OpenApiSchema | undefined): string[] {
  if (!schema) {
    return [];
  }
  if (schema.$ref) {
    return resolveProperties(document, document.components.schemas[schema.$ref.split('/').pop()!]);
  }
  return [...Object.keys(schema.properties ?? {}), ...(schema.allOf ?? []).flatMap((part) => resolveProperties(document, part))];
}

function operationsOf(document: OpenApiDocument): Operation[] {
  const operations: Operation[] = [];
  for (const [path, byMethod] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(byMethod)) {
      const params = new Set<string>(CREDENTIAL_PARAMS);
      for (const parameter of operation.parameters ?? []) {
        if (parameter.in !== 'path') {
          params.add(parameter.name);
        }
      }
      for (const name of resolveProperties(document, operation.requestBody?.content?.['application/json']?.schema)) {
        params.add(name);
      }
      operations.push({ method: method.toUpperCase(), path, params: [...params] });
    }
  }
  return operations;
}

function isJapanese(value: unknown): boolean {
  return typeof value === 'string' && /[\u3040-\u30ff\u4e00-\u9fff]/.test(value);
}

/** 4xx in the error envelope, or (reads only) a success; never a 5xx, never a dropped connection. */
function judge(operation: Operation, label: string, result: HttpResult | Error): string | undefined {
  const where = `${operation.method} ${operation.path} [${label}]`;
  if (result instanceof Error) {
    return `${where}: no response (${result.message})`;
  }
  if (result.status >= 500) {
    return `${where}: ${result.status} ${result.text.slice(0, 200)}`;
  }
  if (result.status >= 400) {
    const body = result.body as { status?: unknown; code?: unknown; error?: unknown; message?: unknown; message_ja?: unknown; details?: unknown } | undefined;
    if (body?.status !== false || body.code !== result.status || typeof body.error !== 'string' || typeof body.message !== 'string') {
      return `${where}: ${result.status} without the error envelope: ${result.text.slice(0, 200)}`;
    }
    // Japanese on the body and on every detail.
    const details = Array.isArray(body.details) ? (body.details as Array<{ message_ja?: unknown }>) : [];
    if (!isJapanese(body.message_ja) || !details.every((entry) => isJapanese(entry.message_ja))) {
      return `${where}: ${result.status} without message_ja: ${result.text.slice(0, 200)}`;
    }
    return undefined;
  }
  return operation.method === 'GET' ? undefined : `${where}: a write succeeded with ${result.status}`;
}

describe('abuse: every endpoint with malformed input (e2e)', () => {
  let app: TestApp;
  let operations: Operation[];
  let credentials: Record<string, string>;

  beforeAll(async () => {
    app = await TestApp.start();
    const key = await app.createApiKey(['operator', 'game-server']);
    const user = await registerClubUser(app, key, { admin: true });
    credentials = { 'x-api-key': key, authorization: `Bearer ${user.usertoken}` };
    operations = operationsOf((await app.get('/docs/openapi.json')).body as unknown as OpenApiDocument);
  });

  afterAll(async () => {
    await app?.stop();
  });

  /** Rows per table, to prove that nothing was written. */
  async function rowCounts(): Promise<Record<string, number>> {
    const counts: Record<string, number> = {};
    for (const table of [...new Set(app.dataSource.entityMetadatas.map((metadata) => metadata.tableName))].sort()) {
      const [row] = await app.dataSource.query<Array<{ n: number | string }>>(`SELECT COUNT(*) AS n FROM ${table}`);
      counts[table] = Number(row?.n);
    }
    return counts;
  }

  async function send(operation: Operation, value: unknown, options: { headers?: Record<string, string>; form?: boolean } = {}): Promise<HttpResult | Error> {
    const path = operation.path.replace(/\{[^}]+\}/g, () => encodeURIComponent(asText(value, 2000)));
    const request: RequestOptions = { headers: options.headers };
    if (operation.method === 'GET' || operation.method === 'DELETE') {
      request.query = Object.fromEntries(operation.params.map((name) => [name, asText(value, 4000)]));
    } else if (options.form) {
      request.raw = new URLSearchParams(operation.params.map((name): [string, string] => [name, asText(value, 4000)])).toString();
      request.contentType = 'application/x-www-form-urlencoded';
    } else {
      request.raw = `{${operation.params.map((name) => `${JSON.stringify(name)}:${JSON.stringify(value)}`).join(',')}}`;
      request.contentType = 'application/json';
    }
    return app.request(operation.method, path, request).catch((error: Error) => error);
  }

  it('discovers the documented endpoints', () => {
    const routes = operations.map((operation) => `${operation.method} ${operation.path}`);
    for (const route of ['GET /health', 'GET /health/ready', 'POST /club/token', 'GET /club/token', 'POST /club/register', 'POST /club/nickname', 'POST /game-server/userkeys']) {
      expect(routes).toContain(route);
    }
  });

  it('answers every hostile value at every endpoint with a 4xx envelope and writes nothing, without credentials', async () => {
    const before = await rowCounts();
    const problems: string[] = [];
    for (const operation of operations) {
      for (const [label, value] of Object.entries(HOSTILE)) {
        const problem = judge(operation, label, await send(operation, value));
        if (problem) {
          problems.push(problem);
        }
      }
      const form = judge(operation, 'form body', await send(operation, HOSTILE['SQL-like'], { form: true }));
      if (form) {
        problems.push(form);
      }
    }
    expect(problems).toEqual([]);
    expect(await rowCounts()).toEqual(before);
    expect((await app.get('/health')).status).toBe(200);
  });

  it('does the same with valid operator, game-server and club-admin credentials', async () => {
    // Side effects that need no parameters at all (a ban-list run, a logout, a console sign-in) are not malformed input.
    const parameterised = operations.filter((operation) => !/\/(sync|logout|console-session)$/.test(operation.path));
    const before = await rowCounts();
    const problems: string[] = [];
    for (const operation of parameterised) {
      for (const [label, value] of Object.entries(HOSTILE)) {
        const problem = judge(operation, label, await send(operation, value, { headers: credentials }));
        if (problem) {
          problems.push(problem);
        }
      }
    }
    expect(problems).toEqual([]);
    expect(await rowCounts()).toEqual(before);
    expect((await app.get('/club/@me', { headers: credentials })).status).toBe(200);
  });

  it('rejects prototype-pollution bodies and never pollutes Object.prototype', async () => {
    const before = await rowCounts();
    const bodies = [
      '{"__proto__": {"polluted": "yes"}, "uuid": "0b4c9b7e-0000-4000-8000-000000000001", "mcid": "proto_test"}',
      '{"constructor": {"prototype": {"polluted": "yes"}}, "uuid": "0b4c9b7e-0000-4000-8000-000000000002", "mcid": "ctor_test"}',
    ];
    for (const raw of bodies) {
      expectError(await app.request('POST', '/game-server/userkeys', { raw, contentType: 'application/json', headers: credentials }), 400, 'invalid_request');
    }
    for (const raw of ['__proto__[polluted]=yes&uuid=x', 'constructor[prototype][polluted]=yes', '__proto__.polluted=yes&constructor.prototype.polluted=yes']) {
      const result = await app.request('POST', '/club/token', { raw, contentType: 'application/x-www-form-urlencoded' });
      expectError(result, 400, 'invalid_request');
    }
    const query = await app.get('/users?__proto__[polluted]=yes&constructor[prototype][polluted]=yes');
    expectError(query, 400, 'invalid_request');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.prototype).not.toHaveProperty('polluted');
    expect(await rowCounts()).toEqual(before);
  });

  it('answers bodies of the wrong shape and depth with 400 or 413', async () => {
    const deep = `${'['.repeat(20_000)}${']'.repeat(20_000)}`;
    const shapes: Array<[string, string | undefined]> = [
      ['[1,2,3]', 'application/json'],
      ['"just a string"', 'application/json'],
      ['null', 'application/json'],
      ['12345', 'application/json'],
      [deep, 'application/json'],
      ['{"a":1,"a":2}', 'application/json'],
      ['\u0000\u0001\u0002', 'application/json'],
      ['{"username": "x"', undefined],
      ['\ufeff{"username": "x"}', 'application/json'],
      [`{"padding": "${'y'.repeat(70 * 1024)}"}`, 'application/json'],
    ];
    const before = await rowCounts();
    for (const [raw, contentType] of shapes) {
      for (const path of ['/club/token', '/club/register', '/game-server/userkeys']) {
        const result = await app.request('POST', path, { raw, contentType, headers: credentials });
        expect({ path, raw: raw.slice(0, 30), status: result.status < 500 && result.status >= 400 }).toEqual({ path, raw: raw.slice(0, 30), status: true });
        expect(result.body).toMatchObject({ status: false, code: result.status });
      }
    }
    expect(await rowCounts()).toEqual(before);
    expect((await app.get('/health')).status).toBe(200);
  });

  it('stores unicode, NUL-free SQL-like and emoji text verbatim where text is allowed', async () => {
    for (const nickname of ["Robert'); DROP TABLE players;--", '建設者🏗️‍👷', 'Zoë ﾃｽﾄ 𝕏']) {
      const result = await app.post<{ nickname: string }>('/club/nickname', { nickname, recaptcha: 'pass' }, { headers: credentials });
      expect(result.status).toBe(200);
      expect(result.body.nickname).toBe(nickname);
      expect((await app.get<{ data: { nickname: string } }>('/club/@me', { headers: credentials })).body.data.nickname).toBe(nickname);
    }
    expectError(await app.post('/club/nickname', { nickname: 'a\u0000b', recaptcha: 'pass' }, { headers: credentials }), 400, 'invalid_request');
  });

  it('refuses a 10,000-corner polygon and a 1,500-corner one without writing a city', async () => {
    const create = operations.find((operation) => operation.method === 'POST' && operation.path === '/cities/create');
    expect(create).toBeDefined();
    // A rectilinear staircase: corners (0,0) (0,1) (1,1) (1,2) … back along the axes.
    const staircase = (steps: number) => {
      const corners: Array<{ id: number; x: string; z: string }> = [];
      for (let step = 0; step < steps; step += 1) {
        corners.push({ id: 0, x: String(step), z: String(step) }, { id: 0, x: String(step), z: String(step + 1) });
      }
      corners.push({ id: 0, x: String(steps), z: String(steps) }, { id: 0, x: String(steps), z: '0' });
      return corners.map((corner, index) => ({ ...corner, id: index + 1 }));
    };
    const before = await rowCounts();
    for (const corners of [staircase(4999), staircase(749)]) {
      const body = { usertoken: credentials.authorization.slice(7), recaptcha: 'pass', cityName: `Stairs ${corners.length}`, cityNameKana: 'かいだん', summary: 's', origin: 'o', corners, count: 1 };
      const started = Date.now();
      const result = await app.post('/cities/create', body, { headers: credentials });
      expect({ corners: corners.length, clientError: result.status >= 400 && result.status < 500 }).toEqual({ corners: corners.length, clientError: true });
      expect(result.body).toMatchObject({ status: false, code: result.status });
      expect(Date.now() - started).toBeLessThan(2000);
    }
    expect(await rowCounts()).toEqual(before);
    expect((await app.get('/health')).status).toBe(200);
  });
});
