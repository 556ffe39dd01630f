import { RouteTable } from '../src/common/http/route-table';
import { isConsolePath } from '../src/console/console-csp';
import { TestApp } from './support/test-app';

interface Operation {
  summary?: string;
  responses: Record<string, { description?: string }>;
}

/** Every endpoint the server answers is described in /docs/openapi.json, with its responses. */
describe('OpenAPI description (e2e)', () => {
  let app: TestApp;
  let paths: Record<string, Record<string, Operation>>;

  beforeAll(async () => {
    app = await TestApp.start();
    paths = (await app.get<{ paths: typeof paths }>('/docs/openapi.json')).body.paths;
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
});
