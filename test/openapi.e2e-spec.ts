import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { RouteTable } from '../src/common/http/route-table';
import { isConsolePath } from '../src/console/console-csp';
import { TestApp } from './support/test-app';

interface LintProblem {
  rule: string;
  severity: 'error' | 'warn';
  message: string;
  where: string;
}

/** Redocly's `recommended` rules over a document, in a child process (the library is an ES module). */
function redoclyLint(document: string): Promise<LintProblem[]> {
  return new Promise((resolve, reject) => {
    const child = execFile(process.execPath, [join(__dirname, '..', 'scripts', 'openapi-lint.js')], { maxBuffer: 16 << 20 }, (error, stdout, stderr) => {
      if (error) {
        reject(new Error(`redocly lint failed: ${stderr}`));
        return;
      }
      resolve(JSON.parse(stdout) as LintProblem[]);
    });
    child.stdin?.end(document);
  });
}

interface Parameter {
  name: string;
  in: string;
  schema?: { type?: string; pattern?: string; minimum?: number; enum?: unknown[] };
}

interface Operation {
  parameters?: Parameter[];
  summary?: string;
  security?: unknown[];
  responses: Record<string, { description?: string }>;
}

/** Every endpoint the server answers is described in /docs/openapi.json, with its responses. */
describe('OpenAPI description (e2e)', () => {
  let app: TestApp;
  let paths: Record<string, Record<string, Operation>>;
  let text: string;

  beforeAll(async () => {
    app = await TestApp.start();
    const served = await app.get<{ paths: typeof paths }>('/docs/openapi.json');
    paths = served.body.paths;
    text = served.text;
  });

  afterAll(async () => {
    await app.stop();
  });

  const routes = () =>
    app.app
      .get(RouteTable)
      .list()
      // The console's pages and files are not API routes (contract 13.0): they are not described.
      .filter(({ method, url }) => !['HEAD', 'OPTIONS'].includes(method) && !url.startsWith('/docs') && !isConsolePath(url))
      .map(({ method, url }) => ({ method: method.toLowerCase(), path: url.replace(/:([A-Za-z0-9_.]+)/g, '{$1}') }));

  // Fixed routes that exist only to answer 405 (so `/cities/create` is never read as a city id).
  const methodNotAllowedStubs = ['get /cities/create', 'delete /cities/create', 'delete /cities/requests'];

  it('describes every route the server registers', () => {
    const missing = routes().filter(({ method, path }) => !paths[path]?.[method] && !methodNotAllowedStubs.includes(`${method} ${path}`));
    expect(missing).toEqual([]);
  });

  it('gives every operation a summary, a success response and its error responses', () => {
    const problems: string[] = [];
    for (const { method, path } of routes()) {
      const operation = paths[path]?.[method];
      if (!operation) {
        continue;
      }
      const statuses = Object.keys(operation.responses);
      if (!operation.summary) {
        problems.push(`${method} ${path}: no summary`);
      }
      if (!statuses.some((status) => /^2\d\d$/.test(status))) {
        problems.push(`${method} ${path}: no 2xx response`);
      }
      if (!path.startsWith('/health') && !statuses.some((status) => /^4\d\d$/.test(status))) {
        problems.push(`${method} ${path}: no error response`);
      }
    }
    expect(problems).toEqual([]);
  });

  it("passes Redocly's recommended rules: no error, and no warning but the ambiguity contract 13.0 asks for", async () => {
    const problems = await redoclyLint(text);
    const summary = (problem: LintProblem) => `${problem.severity} ${problem.rule} ${problem.where}: ${problem.message}`;
    expect(problems.filter((problem) => problem.severity === 'error').map(summary)).toEqual([]);
    // `/cities/edit/{id}` and `/cities/{id}/history` both match /cities/edit/history: the fixed segment wins (section 1).
    const expected = (problem: LintProblem) => problem.rule === 'no-ambiguous-paths' && /\/cities\/(edit\/)?\{id\}/.test(problem.message);
    expect(problems.filter((problem) => !expected(problem)).map(summary)).toEqual([]);
  });

  it('names the path parameter of every single-city route id (contract 13.0)', () => {
    const cityPaths = Object.keys(paths).filter((path) => /^\/cities\/.*\{/.test(path) && !path.startsWith('/cities/reject/') && !path.startsWith('/cities/requests/'));
    expect(cityPaths.length).toBeGreaterThanOrEqual(4);
    expect(cityPaths.filter((path) => !/\{id\}/.test(path) || /\{cityId\}/.test(path))).toEqual([]);
    expect(Object.keys(paths)).toEqual(expect.arrayContaining(['/cities/{id}', '/cities/edit/{id}', '/cities/approval/{type}/{id}', '/cities/{id}/history']));
  });

  it('types every parameter, and gives every path parameter its pattern, bounds or values (generated clients)', () => {
    const problems: string[] = [];
    for (const [path, operations] of Object.entries(paths)) {
      for (const [method, operation] of Object.entries(operations)) {
        for (const parameter of operation.parameters ?? []) {
          const where = `${method} ${path} ${parameter.in} ${parameter.name}`;
          const schema = parameter.schema ?? {};
          if (typeof schema.type !== 'string') {
            problems.push(`${where}: no type`);
          } else if (parameter.in === 'path' && schema.pattern === undefined && schema.minimum === undefined && schema.enum === undefined) {
            problems.push(`${where}: ${schema.type} without a pattern, minimum or enum`);
          }
        }
      }
    }
    expect(problems).toEqual([]);
    expect(paths['/webhooks/{id}'].delete.parameters).toEqual([expect.objectContaining({ name: 'id', in: 'path', schema: expect.objectContaining({ type: 'integer', minimum: 1 }) })]);
  });

  it('declares security on every operation: the scheme, or [] for a public one', () => {
    const undeclared = routes().filter(({ method, path }) => paths[path]?.[method] && !Array.isArray(paths[path][method].security));
    expect(undeclared).toEqual([]);
    expect(paths['/cities/{id}'].get.security).toEqual([]);
    expect(paths['/club/@me'].get.security).toEqual([{ usertoken: [] }]);
  });

  it('gives no optional input field a default (generated clients would make it required)', () => {
    const document = JSON.parse(text) as { components: { schemas: Record<string, { properties?: Record<string, { default?: unknown }>; required?: string[] }> } };
    const defaulted = Object.entries(document.components.schemas).flatMap(([name, schema]) =>
      Object.entries(schema.properties ?? {})
        .filter(([property, value]) => value.default !== undefined && !(schema.required ?? []).includes(property))
        .map(([property]) => `${name}.${property}`),
    );
    expect(defaulted).toEqual([]);
  });

  it('answers a path value through the query override under the same name (contract 1 and 13.0)', async () => {
    // The path value is a valid id; the query's is not, and it is the one checked.
    const read = await app.get('/cities/123456', { query: { id: 'not-an-id' } });
    expect(read.status).toBe(400);
    expect(read.body.details).toEqual([expect.objectContaining({ field: 'id' })]);
    const operator = { headers: { 'x-api-key': await app.createApiKey(['operator']) } };
    const approval = await app.post('/cities/approval/create/123456', undefined, { ...operator, query: { id: 'x' } });
    expect(approval.status).toBe(400);
    expect(approval.body.details).toEqual([expect.objectContaining({ field: 'id' })]);
    expect((await app.post('/cities/approval/create/123456', undefined, operator)).status).toBe(404);
  });
});
