import { Injectable } from '@nestjs/common';
import FindMyWay, { HTTPVersion } from 'find-my-way';

const noop = (): void => undefined;

/**
 * A copy of the registered routes, used only to tell a 405 (known path, other method) from a
 * 404. Filled from Fastify's onRoute hook before the server starts.
 */
@Injectable()
export class RouteTable {
  private readonly router = FindMyWay<HTTPVersion.V1>();
  private readonly methods = new Set<string>();
  private readonly registered: Array<{ method: string; url: string }> = [];

  add(method: string | string[], url: string): void {
    for (const one of Array.isArray(method) ? method : [method]) {
      if (this.router.hasRoute(one as never, url)) {
        continue;
      }
      this.router.on(one as never, url, noop);
      this.methods.add(one);
      this.registered.push({ method: one, url });
    }
  }

  /** Every registered method and URL pattern (`/cities/:id`), in registration order. */
  list(): ReadonlyArray<{ method: string; url: string }> {
    return this.registered;
  }

  allowedMethods(rawUrl: string): string[] {
    const path = rawUrl.split('?')[0] ?? '/';
    return [...this.methods].filter((method) => this.router.find(method as never, path) !== null).sort();
  }
}
