import { createServer, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One scripted answer of the fake upstream. */
export type FakeReply =
  | { status: 200; body: unknown; delayMs?: number }
  | { status: 404 | 500 | 502 | 503; delayMs?: number }
  | { status: 429; retryAfter?: string }
  | { hang: true }
  | { raw: string };

export interface FakeBan {
  banId: number;
  type?: string;
  reason?: string;
  bannedAt?: string;
  server?: { address: string } | null;
  bannedBy?: { name: string | null; uuid: string | null } | null;
  lostRep?: number | null;
}

/** A 200 body in the upstream's form (docs/game-server.md, The ban-list mirror). */
export function upstreamPlayer(uuid: string, name: string, reputation: number, bans: FakeBan[]): Record<string, unknown> {
  return {
    playerId: 4242,
    name,
    uuid: uuid.replace(/-/g, ''),
    reputation,
    bans: bans.map((ban) => ({
      type: 'global',
      reason: 'griefing',
      bannedAt: '2020-05-01T12:00:00.000Z',
      server: { address: 'play.example.net' },
      bannedBy: { name: 'Moderator', uuid: '0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f' },
      ...ban,
    })),
    lastCheckedAt: '2026-01-01T00:00:00.000Z',
  };
}

/**
 * The external ban-list service on loopback, answering `GET /player/{uuid}` from a script per
 * player: each request takes the next reply, the last one repeats. Unscripted players get 404.
 */
export class FakeBanlist {
  /** Every request, in arrival order, with its time. */
  readonly requests: Array<{ uuid: string; at: number }> = [];
  private readonly scripts = new Map<string, FakeReply[]>();
  private readonly hanging = new Set<ServerResponse>();
  private server!: Server;

  async start(): Promise<string> {
    this.server = createServer((request, response) => {
      const match = /^\/player\/([^/?]+)$/.exec(request.url ?? '');
      if (!match || request.method !== 'GET') {
        response.writeHead(400).end();
        return;
      }
      // No keep-alive: a reused socket that the server closes at the same moment would look like a
      // network error to the client, which retries and so takes a scripted reply of its own.
      response.setHeader('connection', 'close');
      const uuid = decodeURIComponent(match[1]).toLowerCase();
      this.requests.push({ uuid, at: Date.now() });
      const script = this.scripts.get(uuid) ?? [];
      const reply: FakeReply = (script.length > 1 ? script.shift() : script[0]) ?? { status: 404 };
      this.answer(reply, response);
    });
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    const { port } = this.server.address() as AddressInfo;
    return `http://127.0.0.1:${port}`;
  }

  /** Replaces the script of a player. */
  script(uuid: string, ...replies: FakeReply[]): void {
    this.scripts.set(uuid.toLowerCase(), replies);
  }

  requestsFor(uuid: string): Array<{ uuid: string; at: number }> {
    return this.requests.filter((request) => request.uuid === uuid.toLowerCase());
  }

  async stop(): Promise<void> {
    for (const response of this.hanging) {
      response.destroy();
    }
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private answer(reply: FakeReply, response: ServerResponse): void {
    if ('hang' in reply) {
      // Never answers: the service's timeout must fire.
      this.hanging.add(response);
      response.on('close', () => this.hanging.delete(response));
      return;
    }
    if ('raw' in reply) {
      response.writeHead(200, { 'content-type': 'application/json' }).end(reply.raw);
      return;
    }
    if (reply.status === 429) {
      response.writeHead(429, reply.retryAfter === undefined ? {} : { 'retry-after': reply.retryAfter }).end('{"message":"Too many requests"}');
      return;
    }
    const send = (): void => {
      const body = reply.status === 200 ? JSON.stringify(reply.body) : JSON.stringify({ message: reply.status === 404 ? 'Not found' : 'boom' });
      response.writeHead(reply.status, { 'content-type': 'application/json' }).end(body);
    };
    if (reply.delayMs) {
      setTimeout(send, reply.delayMs);
    } else {
      send();
    }
  }
}
