import { MAX_AWAY_SECONDS } from '../src/play-time/dto/play-time.dto';
import { expectError, HttpResult, registerClubUser, RequestOptions, TestApp } from './support/test-app';

interface Operation {
  method: string;
  path: string;
  /** Parameter names the endpoint documents (query and body), plus the credential names. */
  params: string[];
  /** Every body field is documented as nullable (null removes what it names): null everywhere is a valid request, not a malformed one. */
  nullBodyIsValid: boolean;
}

interface OpenApiProperty {
  type?: string | string[];
  nullable?: boolean;
}

interface OpenApiSchema {
  $ref?: string;
  properties?: Record<string, OpenApiProperty>;
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

function resolveProperties(document: OpenApiDocument, schema: OpenApiSchema | undefined): Array<[string, OpenApiProperty]> {
  if (!schema) {
    return [];
  }
  if (schema.$ref) {
    return resolveProperties(document, document.components.schemas[schema.$ref.split('/').pop()!]);
  }
  return [...Object.entries(schema.properties ?? {}), ...(schema.allOf ?? []).flatMap((part) => resolveProperties(document, part))];
}

const isNullable = (property: OpenApiProperty): boolean => property.nullable === true || (Array.isArray(property.type) && property.type.includes('null'));

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
      const body = resolveProperties(document, operation.requestBody?.content?.['application/json']?.schema);
      for (const [name] of body) {
        params.add(name);
      }
      operations.push({ method: method.toUpperCase(), path, params: [...params], nullBodyIsValid: body.length > 0 && body.every(([, property]) => isNullable(property)) });
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
    const key = await app.createApiKey(['operator', 'game-server', 'chat-bot']);
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
    // The one route today whose body of nulls is valid (each null removes a link): no more are skipped unnoticed.
    expect(operations.filter((operation) => operation.nullBodyIsValid).map((operation) => `${operation.method} ${operation.path}`)).toEqual(['PUT /club/@me/profile-links']);
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

  it('does the same with valid operator, game-server, chat-bot and club-admin credentials', async () => {
    // Side effects that need no parameters at all (a ban-list run, a logout, a console sign-in) are not malformed input.
    const parameterised = operations.filter((operation) => !/\/(sync|logout|console-session)$/.test(operation.path));
    const before = await rowCounts();
    const problems: string[] = [];
    for (const operation of parameterised) {
      for (const [label, value] of Object.entries(HOSTILE)) {
        // Where every body field is nullable ("null removes it"), a body of nulls is a valid request.
        if (value === null && operation.nullBodyIsValid) {
          continue;
        }
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

/**
 * Every numeric and time field of every route that takes a body or a query, at the edges of what
 * its column holds on both databases and past them: ranges' ends, 2^31, 2^53, 1e308, fractions,
 * digit strings longer than any number, nested lists and objects where a number belongs. Each
 * request is otherwise valid, so a value the rules let through reaches the database: the answer
 * is a 2xx or a 4xx in the envelope (`message_ja` on it), never a 5xx. Field names in FIELDS are
 * checked against the OpenAPI document, so a numeric field added later without a line here fails.
 */
describe('abuse: numeric and time fields at their edges (e2e)', () => {
  const UUID = '069a79f4-44e9-4726-a5be-fca90e38aaf5';
  const DELIVERY = '6f1c2a4e-1d2b-4c3d-9e8f-0a1b2c3d4e5f';
  const AT = '2024-01-01T00:00:00Z';

  /** Sent as JSON numbers, strings and shapes in a body. */
  const BODY_INTEGERS: unknown[] = [
    0, -1, 1, 2_147_483_647, 2_147_483_648, -2_147_483_648, -2_147_483_649, 2 ** 53 - 1, 2 ** 53, 2 ** 53 + 2, 1e308, -1e308, 1.5, 1e-7, -0,
    '2147483648', '99999999999999999999', '1e308', '-0', ' 7 ', '0x10', '',
    [], [[]], [[1]], [1], {}, { n: 1 }, null, true,
  ];
  /** Sent in a query string or a path segment. */
  const TEXT_INTEGERS = ['0', '-1', '1', '2147483647', '2147483648', '-2147483649', '9007199254740991', '9007199254740993', '9999999999999999', '99999999999999999999', '1e308', '1.5', '0x10', '+1', '%20', 'NaN', 'Infinity'];
  const TIMES: unknown[] = [
    '9999-12-31T23:00:00-05:00', '9999-12-31T23:59:59.999Z', '9999-12-31T23:59:59.999-00:01', '1000-01-01T00:00:00Z', '0999-12-31T23:59:59.999Z',
    '0000-01-01T00:00:00Z', '0000-01-01T00:00:00+14:00', '+010000-01-01T00:00:00Z', '-000001-01-01T00:00:00Z', '1970-01-01T00:00:00Z', '2024-02-30T00:00:00Z',
    '2024-01-01T00:00:00.123456789Z', 0, 1e308, -1, [], [[]], {}, null,
  ];

  /** integer and coordinate: a JSON body's field; text: a query or path value; time: an ISO 8601 field. */
  type Kind = 'integer' | 'coordinate' | 'text' | 'time';
  interface Field {
    /** `METHOD path field` as reported. */
    name: string;
    kind: Kind;
    /** Values beside the kind's (a long-poll's `wait` gets only values that answer at once). */
    values?: unknown[];
    /** Values sent besides the kind's (a field's own limits). */
    more?: unknown[];
    send: (value: unknown) => Promise<HttpResult>;
    /** Whether an answer shows that the value got past validation (default: not a 5xx, and not a 400 `invalid_request`). */
    passed?: (result: HttpResult) => boolean;
    /** What else the route promises for this value: a problem, or undefined. */
    check?: (value: unknown, result: HttpResult) => string | undefined;
  }

  let app: TestApp;
  let headers: Record<string, string>;
  let clubToken: string;
  /** A registered city of the club user's, for edits. */
  let editable = 0;
  let sequence = 0;

  /** A 10×10 square with its low corner at (x, z); an edge value goes on every corner it belongs to. */
  const square = (x: unknown, z: unknown): Array<{ id: number; x: unknown; z: unknown }> => {
    const far = (at: unknown) => (typeof at === 'number' ? at + 9 : typeof at === 'string' && /^-?\d+$/.test(at) ? String(BigInt(at) + 9n) : at);
    return [
      { id: 1, x, z },
      { id: 2, x, z: far(z) },
      { id: 3, x: far(x), z: far(z) },
      { id: 4, x: far(x), z },
    ];
  };
  const KANA_DIGITS = 'あいうえおかきくけこ';
  const city = (overrides: Record<string, unknown>) => {
    sequence += 1;
    const kana = [...String(sequence)].map((digit) => KANA_DIGITS[Number(digit)]).join('');
    return { usertoken: clubToken, recaptcha: 'pass', cityName: `Edge ${sequence} ${Math.random().toString(36).slice(2, 6)}`, cityNameKana: `へり${kana}`, corners: square(sequence * 100, 5_000_000), count: 100, ...overrides };
  };
  const json = (method: string, path: string, body: unknown) => app.request(method, path, { body, headers });
  const punishment = (issuedAt: unknown) => {
    sequence += 1;
    return { id: `edge-${sequence}`, kind: 'jail', uuid: UUID, mcid: 'Notch', reason: 'edge', issuedBy: 'CONSOLE', issuedAt };
  };
  const periodmatch = (overrides: Record<string, unknown>) => {
    sequence += 1;
    return { id: `edge-${sequence}`, uuid: UUID, mcid: 'Notch', success: 1, failure: 0, matchTime: 10, realMatchTime: 10, calcMatchTime: 10_000, startTime: AT, endTime: AT, ...overrides };
  };
  const session = (overrides: Record<string, unknown>) => {
    sequence += 1;
    return { id: `edge-session-${sequence}`, uuid: UUID, mcid: 'Notch', startedAt: AT, ...overrides };
  };
  const away = (overrides: Record<string, unknown>) => {
    sequence += 1;
    return { id: `edge-away-${sequence}`, uuid: UUID, mcid: 'Notch', seconds: 60, at: AT, ...overrides };
  };
  /**
   * A session's later times against its start (AT): up to 31 days after it is taken, a second more
   * or a time before the start is refused (400), whatever else the value is.
   */
  const SESSION_LIMITS: Record<string, number> = { '2024-02-01T00:00:00Z': 200, '2024-02-01T00:00:01Z': 400, '2023-12-31T23:59:59Z': 400 };
  const sessionLimit = (value: unknown, result: HttpResult): string | undefined => {
    const expected = typeof value === 'string' ? SESSION_LIMITS[value] : undefined;
    return expected === undefined || result.status === expected ? undefined : `${result.status}, not ${expected}: ${result.text.slice(0, 200)}`;
  };
  /** A chat id (18 digits) of its own per request, so that each accepted time is stored as a new record. */
  const chatid = () => `7${String(++sequence).padStart(17, '0')}`;
  const query = (path: string, name: string, base: Record<string, string> = {}) => (value: unknown) =>
    app.request('GET', `${path}?${new URLSearchParams({ ...base, [name]: String(value) }).toString()}`, { headers });
  const inPath = (method: string, template: string) => (value: unknown) => app.request(method, template.replace('{}', encodeURIComponent(String(value))), { headers });

  const FIELDS: Field[] = [
    { name: 'POST /game-server/logins logins[].loggedInAt', kind: 'time', send: (value) => json('POST', '/game-server/logins', { logins: [{ uuid: UUID, mcid: 'Notch', loggedInAt: value }] }) },
    { name: 'PUT /game-server/achievements achievements[].id', kind: 'integer', send: (value) => json('PUT', '/game-server/achievements', { achievements: [{ id: value, title: 'Edge', description: 'd' }] }) },
    { name: 'POST /game-server/achievements/unlocks unlocks[].achievementId', kind: 'integer', send: (value) => json('POST', '/game-server/achievements/unlocks', { unlocks: [{ uuid: UUID, achievementId: value, unlockedAt: AT }] }) },
    { name: 'POST /game-server/achievements/unlocks unlocks[].unlockedAt', kind: 'time', send: (value) => json('POST', '/game-server/achievements/unlocks', { unlocks: [{ uuid: UUID, achievementId: 12, unlockedAt: value }] }) },
    { name: 'POST /game-server/votes votes[].votedAt', kind: 'time', send: (value) => json('POST', '/game-server/votes', { votes: [{ id: 'abuse-vote', uuid: UUID, site: 'minecraft.jp', votedAt: value }] }) },
    { name: 'POST /game-server/login-texts loginTexts[].at', kind: 'time', send: (value) => json('POST', '/game-server/login-texts', { loginTexts: [{ id: 'abuse-text', uuid: UUID, text: 'x', at: value }] }) },
    { name: 'POST /game-server/group-changes groupChanges[].expiresAt', kind: 'time', send: (value) => json('POST', '/game-server/group-changes', { groupChanges: [{ id: 'abuse-group-1', uuid: UUID, group: 'verified', expiresAt: value, at: AT }] }) },
    { name: 'POST /game-server/group-changes groupChanges[].at', kind: 'time', send: (value) => json('POST', '/game-server/group-changes', { groupChanges: [{ id: 'abuse-group-2', uuid: UUID, group: 'verified', at: value }] }) },
    { name: 'POST /game-server/sessions serverStartedAt', kind: 'time', send: (value) => json('POST', '/game-server/sessions', { serverStartedAt: value, sessions: [session({})] }) },
    { name: 'POST /game-server/sessions sessions[].startedAt', kind: 'time', send: (value) => json('POST', '/game-server/sessions', { sessions: [session({ startedAt: value })] }) },
    {
      name: 'POST /game-server/sessions sessions[].lastActiveAt',
      kind: 'time',
      more: Object.keys(SESSION_LIMITS),
      send: (value) => json('POST', '/game-server/sessions', { sessions: [session({ lastActiveAt: value })] }),
      check: sessionLimit,
    },
    {
      name: 'POST /game-server/sessions sessions[].endedAt',
      kind: 'time',
      more: Object.keys(SESSION_LIMITS),
      send: (value) => json('POST', '/game-server/sessions', { sessions: [session({ lastActiveAt: AT, endedAt: value })] }),
      check: sessionLimit,
    },
    {
      name: 'POST /game-server/away-time away[].seconds',
      kind: 'integer',
      more: [MAX_AWAY_SECONDS, MAX_AWAY_SECONDS + 1],
      send: (value) => json('POST', '/game-server/away-time', { away: [away({ seconds: value })] }),
      // A JSON number is taken when it is a whole number of seconds from 1 to 31 days, refused otherwise.
      check: (value, result) => {
        if (typeof value !== 'number') {
          return undefined;
        }
        const expected = Number.isInteger(value) && value >= 1 && value <= MAX_AWAY_SECONDS ? 200 : 400;
        return result.status === expected ? undefined : `${result.status}, not ${expected}: ${result.text.slice(0, 200)}`;
      },
    },
    { name: 'POST /game-server/away-time away[].at', kind: 'time', send: (value) => json('POST', '/game-server/away-time', { away: [away({ at: value })] }) },
    {
      name: 'POST /chat-bot/accounts accounts[].reportedAt',
      kind: 'time',
      send: (value) => {
        const id = chatid();
        return json('POST', '/chat-bot/accounts', { accounts: [{ id: `edge-${id}`, chatid: id, name: 'edge', reportedAt: value }] });
      },
    },
    {
      name: 'POST /chat-bot/second-accounts secondAccounts[].registeredAt',
      kind: 'time',
      send: (value) => {
        const id = chatid();
        return json('POST', '/chat-bot/second-accounts', { secondAccounts: [{ id: `edge-${id}`, chatid: id, mainChatid: '123456789012345678', registeredAt: value }] });
      },
    },
    { name: 'POST /cities/create count', kind: 'integer', values: [100, ...BODY_INTEGERS], send: (value) => json('POST', '/cities/create', city({ count: value })) },
    { name: 'POST /cities/create corners[].id', kind: 'integer', send: (value) => json('POST', '/cities/create', city({ corners: square(7_000_000, 0).map((corner, index) => (index === 0 ? { ...corner, id: value } : corner)) })) },
    { name: 'POST /cities/create corners[].x', kind: 'coordinate', send: (value) => json('POST', '/cities/create', city({ corners: square(value, 7_000_000) })) },
    { name: 'POST /cities/create corners[].z', kind: 'coordinate', send: (value) => json('POST', '/cities/create', city({ corners: square(7_100_000 + sequence * 100, value) })) },
    { name: 'PATCH /cities/edit/{id} count', kind: 'integer', values: [100, ...BODY_INTEGERS], send: (value) => json('PATCH', `/cities/edit/${editable}`, { ...city({ count: value }), cityName: undefined, cityNameKana: undefined }) },
    { name: 'PATCH /cities/edit/{id} corners[].x', kind: 'coordinate', send: (value) => json('PATCH', `/cities/edit/${editable}`, { usertoken: clubToken, recaptcha: 'pass', corners: square(value, -7_000_000), count: 100 }) },
    { name: 'PATCH /cities/edit/{id} corners[].z', kind: 'coordinate', send: (value) => json('PATCH', `/cities/edit/${editable}`, { usertoken: clubToken, recaptcha: 'pass', corners: square(-7_000_000, value), count: 100 }) },
    {
      name: 'PATCH /cities/edit/{id} corners[].id',
      kind: 'integer',
      send: (value) => json('PATCH', `/cities/edit/${editable}`, { usertoken: clubToken, recaptcha: 'pass', corners: square(-7_100_000, 0).map((corner, index) => (index === 0 ? { ...corner, id: value } : corner)), count: 100 }),
    },
    { name: 'PATCH /cities/edit/{id} id', kind: 'text', send: (value) => app.request('PATCH', `/cities/edit/${encodeURIComponent(String(value))}`, { body: { usertoken: clubToken, recaptcha: 'pass', summary: 'edge' }, headers }) },
    { name: 'GET /cities id', kind: 'text', send: query('/cities', 'id') },
    { name: 'GET /cities/{id} id', kind: 'text', send: inPath('GET', '/cities/{}') },
    { name: 'DELETE /cities/{id} id', kind: 'text', send: inPath('DELETE', '/cities/{}') },
    { name: 'GET /cities/{id}/shape.svg id', kind: 'text', send: inPath('GET', '/cities/{}/shape.svg') },
    { name: 'GET /cities/{id}/history id', kind: 'text', send: inPath('GET', '/cities/{}/history') },
    { name: 'GET /cities/{id}/history limit', kind: 'text', send: query('/cities/1/history', 'limit') },
    { name: 'GET /cities/{id}/history after', kind: 'text', send: query('/cities/1/history', 'after') },
    { name: 'GET /cities/requests limit', kind: 'text', send: query('/cities/requests', 'limit') },
    { name: 'GET /cities/requests after', kind: 'text', send: query('/cities/requests', 'after') },
    { name: 'GET /cities/requests cityId', kind: 'text', send: query('/cities/requests', 'cityId', { status: 'approved' }) },
    { name: 'GET /cities/requests/{requestId}/conflicts requestId', kind: 'text', send: inPath('GET', '/cities/requests/{}/conflicts') },
    { name: 'POST /cities/requests/{requestId}/withdraw requestId', kind: 'text', send: inPath('POST', '/cities/requests/{}/withdraw') },
    { name: 'POST /cities/approval/{type}/{id} id', kind: 'text', send: inPath('POST', '/cities/approval/create/{}') },
    { name: 'POST /cities/reject/{type}/{requestId} requestId', kind: 'text', send: (value) => app.request('POST', `/cities/reject/create/${encodeURIComponent(String(value))}`, { body: { reason: 'edge' }, headers }) },
    { name: 'GET /club/@me/requests limit', kind: 'text', send: query('/club/@me/requests', 'limit') },
    { name: 'GET /club/@me/requests after', kind: 'text', send: query('/club/@me/requests', 'after') },
    { name: 'GET /maps/cities.svg bbox', kind: 'text', send: (value) => app.request('GET', `/maps/cities.svg?bbox=${encodeURIComponent(`${String(value)},${String(value)},0,0`)}`, { headers }) },
    { name: 'GET /moderation/records from', kind: 'time', send: query('/moderation/records', 'from') },
    { name: 'GET /moderation/records to', kind: 'time', send: query('/moderation/records', 'to') },
    { name: 'GET /moderation/records limit', kind: 'text', send: query('/moderation/records', 'limit') },
    { name: 'GET /events after', kind: 'text', send: query('/events', 'after') },
    { name: 'GET /events limit', kind: 'text', send: query('/events', 'limit') },
    // A wait from 1 to 30 holds the answer open when no event is newer: only values answered at once.
    { name: 'GET /events wait', kind: 'text', values: ['31', '2147483648', '1e308', '-1', '1.5', '99999999999999999999'], send: query('/events', 'wait', { after: '0' }) },
    { name: 'PATCH /webhooks/{id} id', kind: 'text', send: (value) => app.request('PATCH', `/webhooks/${encodeURIComponent(String(value))}`, { body: { active: false }, headers }) },
    { name: 'DELETE /webhooks/{id} id', kind: 'text', send: inPath('DELETE', '/webhooks/{}') },
    { name: 'POST /webhooks/{id}/test id', kind: 'text', send: inPath('POST', '/webhooks/{}/test') },
    { name: 'GET /webhooks/{id}/deliveries id', kind: 'text', send: inPath('GET', '/webhooks/{}/deliveries') },
    { name: 'POST /webhooks/{id}/deliveries/{deliveryId}/redeliver id', kind: 'text', send: inPath('POST', `/webhooks/{}/deliveries/${DELIVERY}/redeliver`) },
    { name: 'GET /users/banlist/ban/{banId} banId', kind: 'text', send: inPath('GET', '/users/banlist/ban/{}') },
    {
      // The players site's route answers the base response with `error` = the message text (not
      // the code): a ban id (a positive integer of at most 16 digits) with no such ban is a 404,
      // anything else a 400. No ban is mirrored here, so a 404 is an id that got through.
      name: 'GET /users/mcbans/ban/{id} id',
      kind: 'text',
      send: inPath('GET', '/users/mcbans/ban/{}'),
      passed: (result) => result.status === 404,
      check: (value, result) => {
        const expected = /^[1-9][0-9]{0,15}$/.test(String(value)) ? 404 : 400;
        const body = result.body as { error?: unknown; message?: unknown } | undefined;
        if (result.status !== expected) {
          return `${result.status}, not ${expected}: ${result.text.slice(0, 200)}`;
        }
        return typeof body?.error === 'string' && body.error === body.message ? undefined : `\`error\` is not the message text: ${result.text.slice(0, 200)}`;
      },
    },
    {
      // The bans site's route: an id of any form names no record here, and that is answered as the
      // site reads a not-found, HTTP 200 `status: false`, never a 400 or a 5xx.
      name: 'GET /v2/bans/details/{kind}/{id} id',
      kind: 'text',
      send: inPath('GET', '/v2/bans/details/vban/{}'),
      passed: (result) => result.status === 200,
      check: (_value, result) => {
        const body = result.body as { status?: unknown; code?: unknown } | undefined;
        return result.status === 200 && body?.status === false && body.code === 404 ? undefined : `not a 200 status false 404: ${result.text.slice(0, 200)}`;
      },
    },
    { name: 'POST /game-server/punishments punishments[].issuedAt', kind: 'time', send: (value) => json('POST', '/game-server/punishments', { punishments: [punishment(value)] }) },
    { name: 'POST /game-server/punishments/lifts lifts[].punishmentId', kind: 'integer', send: (value) => json('POST', '/game-server/punishments/lifts', { lifts: [{ kind: 'jail', punishmentId: value, liftedAt: AT }] }) },
    {
      name: 'POST /game-server/punishments/lifts lifts[].liftedAt',
      kind: 'time',
      // A fresh punishment per value, so that each accepted time reaches the database.
      send: async (value) => {
        const issued = punishment(AT);
        expect((await json('POST', '/game-server/punishments', { punishments: [issued] })).status).toBe(200);
        return json('POST', '/game-server/punishments/lifts', { lifts: [{ kind: 'jail', id: issued.id, liftedAt: value }] });
      },
    },
    ...(['success', 'failure', 'matchTime', 'realMatchTime', 'calcMatchTime'] as const).map(
      (name): Field => ({ name: `POST /game-server/mini-games/periodmatch results[].${name}`, kind: 'integer', send: (value) => json('POST', '/game-server/mini-games/periodmatch', { results: [periodmatch({ [name]: value })] }) }),
    ),
    ...(['startTime', 'endTime'] as const).map(
      (name): Field => ({ name: `POST /game-server/mini-games/periodmatch results[].${name}`, kind: 'time', send: (value) => json('POST', '/game-server/mini-games/periodmatch', { results: [periodmatch({ [name]: value })] }) }),
    ),
  ];

  function valuesOf(field: Field): unknown[] {
    if (field.values) {
      return field.values;
    }
    return [...kindValues(field.kind), ...(field.more ?? [])];
  }

  function kindValues(kind: Kind): unknown[] {
    switch (kind) {
      case 'time':
        return TIMES;
      case 'text':
        return [...TEXT_INTEGERS, '30000000', '-30000001'];
      case 'coordinate':
        return [...BODY_INTEGERS, 30_000_000, -30_000_000, 29_999_991, -30_000_009, '29999991', '-30000001'];
      case 'integer':
        return BODY_INTEGERS;
    }
  }

  beforeAll(async () => {
    // Every accepted create stays pending: the owner's limit must not turn the later ones into 4xx.
    app = await TestApp.start({ CITY_MAX_PER_OWNER: '1000' });
    const key = await app.createApiKey(['operator', 'game-server', 'chat-bot']);
    const user = await registerClubUser(app, key, { admin: true });
    clubToken = user.usertoken;
    headers = { 'x-api-key': key, authorization: `Bearer ${user.usertoken}` };
    expect((await json('PUT', '/game-server/achievements', { achievements: [{ id: 12, title: 'Edge', description: 'd' }] })).status).toBe(200);
    const created = await json('POST', '/cities/create', city({ corners: square(-9_000_000, -9_000_000) }));
    editable = (created.body as { cityId: number }).cityId;
    expect((await app.request('POST', `/cities/approval/create/${editable}`, { headers })).status).toBe(200);
  });

  afterAll(async () => {
    await app?.stop();
  });

  it('covers every numeric and time field the OpenAPI document describes', async () => {
    interface Schema {
      $ref?: string;
      type?: string;
      pattern?: string;
      description?: string;
      example?: unknown;
      items?: Schema;
      allOf?: Schema[];
      properties?: Record<string, Schema>;
    }
    const document = (await app.get('/docs/openapi.json')).body as unknown as {
      paths: Record<string, Record<string, { parameters?: Array<{ name: string; schema?: Schema }>; requestBody?: { content?: Record<string, { schema?: Schema }> } }>>;
      components: { schemas: Record<string, Schema> };
    };
    /** A number, an integer in a string (ids, coordinates) or an ISO 8601 time. */
    const isNumericOrTime = (schema: Schema, name: string): boolean =>
      schema.type === 'integer' ||
      schema.type === 'number' ||
      (schema.pattern ?? '').includes('[1-9][0-9]') ||
      /\binteger\b/.test(schema.description ?? '') ||
      (typeof schema.example === 'string' && /^\d{4}-\d{2}-\d{2}T/.test(schema.example)) ||
      ['limit', 'after', 'wait', 'cityId'].includes(name);
    const bodyFields = (schema: Schema | undefined, prefix: string, seen: string[]): string[] => {
      if (!schema) {
        return [];
      }
      if (schema.$ref) {
        const name = schema.$ref.split('/').pop()!;
        return seen.includes(name) ? [] : bodyFields(document.components.schemas[name], prefix, [...seen, name]);
      }
      if (schema.items) {
        return bodyFields(schema.items, `${prefix}[]`, seen);
      }
      const nested = (schema.allOf ?? []).flatMap((part) => bodyFields(part, prefix, seen));
      if (schema.properties) {
        return [...nested, ...Object.entries(schema.properties).flatMap(([name, property]) => {
          const path = prefix ? `${prefix}.${name}` : name;
          const inner = bodyFields(property, path, seen);
          return inner.length > 0 || property.$ref || property.items?.$ref ? inner : isNumericOrTime(property, name) ? [path] : [];
        })];
      }
      return nested;
    };
    const numeric: string[] = [];
    for (const [path, byMethod] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(byMethod)) {
        const route = `${method.toUpperCase()} ${path}`;
        for (const parameter of operation.parameters ?? []) {
          if (isNumericOrTime(parameter.schema ?? {}, parameter.name)) {
            numeric.push(`${route} ${parameter.name}`);
          }
        }
        for (const field of bodyFields(operation.requestBody?.content?.['application/json']?.schema, '', [])) {
          numeric.push(`${route} ${field}`);
        }
      }
    }
    expect(numeric.length).toBeGreaterThan(30);
    const covered = new Set(FIELDS.map((field) => field.name));
    expect([...new Set(numeric)].filter((name) => !covered.has(name))).toEqual([]);
  });

  it('answers every edge with a 2xx or a 4xx envelope, never a 5xx, on every route', async () => {
    const problems: string[] = [];
    /** Fields none of whose values got past validation: their requests would prove nothing. */
    const neverPassed = new Set(FIELDS.filter((field) => !field.values || field.name.includes('count')).map((field) => field.name));
    let sent = 0;
    for (const field of FIELDS) {
      for (const value of valuesOf(field)) {
        const label = typeof value === 'string' ? value : JSON.stringify(value);
        const result = await field.send(value).catch((error: Error) => error);
        sent += 1;
        const passed = field.passed ?? ((answer: HttpResult) => answer.status < 500 && (answer.status !== 400 || (answer.body as { error?: string }).error !== 'invalid_request'));
        if (!(result instanceof Error) && passed(result)) {
          neverPassed.delete(field.name);
        }
        const broken = result instanceof Error ? undefined : field.check?.(value, result);
        if (broken) {
          problems.push(`${field.name} = ${label}: ${broken}`);
        }
        if (result instanceof Error) {
          problems.push(`${field.name} = ${label}: no response (${result.message})`);
        } else if (result.status >= 500) {
          problems.push(`${field.name} = ${label}: ${result.status} ${result.text.slice(0, 200)}`);
        } else if (result.status >= 400) {
          const body = result.body as { status?: unknown; message_ja?: unknown; details?: Array<{ message_ja?: unknown }> } | undefined;
          if (body?.status !== false || !isJapanese(body.message_ja) || !(body.details ?? []).every((entry) => isJapanese(entry.message_ja))) {
            problems.push(`${field.name} = ${label}: ${result.status} outside the envelope: ${result.text.slice(0, 200)}`);
          }
        }
      }
    }
    expect(problems).toEqual([]);
    expect([...neverPassed]).toEqual([]);
    expect(sent).toBeGreaterThan(500);
    expect((await app.get('/health/ready')).status).toBe(200);
  });
});
