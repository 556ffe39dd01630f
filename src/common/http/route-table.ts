import type { FastifyInstance, HTTPMethods } from 'fastify';

/**
 * The registered routes (filled from Fastify's onRoute hook before the server starts), used to
 * tell a 405 (known path, other method) from a 404 (docs/api.md, Requests and responses). The
 * question "does this path have a route for that method?" goes to Fastify's own router through
 * its public `findRoute`, so it is answered exactly as a request would be routed.
 */
export class RouteTable {
  private readonly methods = new Set<HTTPMethods>();
  private readonly registered: Array<{ method: HTTPMethods; url: string }> = [];
  private readonly known = new Set<string>();

  constructor(private readonly router: Pick<FastifyInstance, 'findRoute'>) {}

  add(method: HTTPMethods | HTTPMethods[], url: string): void {
    for (const one of Array.isArray(method) ? method : [method]) {
      const key = `${one} ${url}`;
      if (this.known.has(key)) {
        continue;
      }
      this.known.add(key);
      this.methods.add(one);
      this.registered.push({ method: one, url });
    }
  }

  /** Every registered method and URL pattern (`/cities/:id`), in registration order. */
  list(): ReadonlyArray<{ method: string; url: string }> {
    return this.registered;
  }

  /** The methods (of those any route uses) that have a route matching this request URL, sorted. */
  allowedMethods(rawUrl: string): string[] {
    const url = rawUrl.split('?')[0] ?? '/';
    return [...this.methods].filter((method) => this.router.findRoute({ method, url }) !== null).sort();
  }
}
