import { createServer, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { brotliCompressSync, constants as zlibConstants, deflateSync, gzipSync } from 'node:zlib';

export type FakeEncoding = 'gzip' | 'deflate' | 'br';

/** One scripted answer of the fake upstream. */
export type FakeReply =
  | { status: 200; body: unknown; delayMs?: number }
  | { status: 404 | 500 | 502 | 503; delayMs?: number }
  | { status: 429; retryAfter?: string }
  | { hang: true }
  | { raw: string }
  /** 200 with `body` compressed. */
  | { encoded: FakeEncoding; body: unknown }
  /**
   * 200 with `bytes` of JSON whitespace, then `body`: valid JSON if read to the end. Chunked
   * unless `declareLength`; written as fast as the client reads, until it closes.
   */
  | { flood: number; body: unknown; declareLength?: true }
  /** 200, then one space every `drip` ms for ever (until the client closes). */
  | { drip: number }
  /** 200 with `bomb` bytes of whitespace and then `body`, compressed (about 1,000 : 1). */
  | { bomb: number; encoding: FakeEncoding; body: unknown }
  | { redirect: 301 | 302 | 303 | 307 | 308; location: string };

/** What one streamed answer (`flood`, `drip`, `bomb`) sent before it ended or the client closed. */
export interface StreamedReply {
  uuid: string;
  /** Bytes written to the socket (compressed bytes for a bomb). */
  sentBytes: number;
  /** Whether the client closed the connection before the body's end. */
  cutOff: boolean;
}

const SPACES = Buffer.alloc(64 * 1024, ' ');
/** Bomb members: 8 MiB of spaces each, gzipped to about 8 KB; members concatenate into one gzip body. */
const BOMB_MEMBER_BYTES = 8 * 1024 * 1024;
let gzipMember: Buffer | undefined;
const compressedBombs = new Map<string, Buffer>();

function compress(encoding: FakeEncoding, data: Buffer): Buffer {
  switch (encoding) {
    case 'gzip':
      return gzipSync(data, { level: 9 });
    case 'deflate':
      return deflateSync(data, { level: 9 });
    case 'br':
      // Quality 4: the default (11) takes seconds on a large input; the ratio is still ~1000 : 1.
      return brotliCompressSync(data, { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 4 } });
  }
}

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

/** The uuid the demo upstream knows a ban of (Notch, the walk-throughs' first player). */
export const DEMO_BANNED_UUID = '069a79f4-44e9-4726-a5be-fca90e38aaf5';

/**
 * A stand-in for the external ban-list service, answering `GET /player/{uuid}` from a script per
 * player: each request takes the next reply, the last one repeats. Unscripted players get 404.
 * One implementation for the tests (which script failures: timeouts, floods, compression bombs,
 * redirects), the docs' walk-throughs and `cli banlist:fake-upstream` (docs/game-server.md,
 * Trying it without the upstream). It lives in src/ so that the built CLI can start it; nothing
 * of the service imports it.
 */
export class FakeBanlist {
  /** Every request, in arrival order, with its time. */
  readonly requests: Array<{ uuid: string; at: number }> = [];
  /** Every streamed answer, once it has ended. */
  readonly streamed: StreamedReply[] = [];
  /** Every request for a path other than /player/{uuid} (a redirect's target, say). */
  readonly otherPaths: string[] = [];
  private readonly scripts = new Map<string, FakeReply[]>();
  private readonly hanging = new Set<ServerResponse>();
  private server!: Server;

  /**
   * Listens on `host`:`port` (loopback and a port the system picks unless told) and returns the
   * base URL to give as BANLIST_SOURCE_URL.
   */
  async start(port = 0, host = '127.0.0.1'): Promise<string> {
    this.server = createServer((request, response) => {
      const match = /^\/player\/([^/?]+)$/.exec(request.url ?? '');
      if (!match) {
        this.otherPaths.push(request.url ?? '');
      }
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
      this.answer(uuid, reply, response);
    });
    await new Promise<void>((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(port, host, () => {
        this.server.off('error', reject);
        resolve();
      });
    });
    const address = this.server.address() as AddressInfo;
    const shown = address.family === 'IPv6' ? `[${address.address}]` : address.address;
    return `http://${shown === '0.0.0.0' || shown === '[::]' ? '127.0.0.1' : shown}:${address.port}`;
  }

  /**
   * The demo script: one global ban of Notch (reputation 7.5, ban 90001), no record (404) of
   * anyone else, the answers the docs' walk-throughs show.
   */
  scriptDemo(): this {
    this.script(DEMO_BANNED_UUID, {
      status: 200,
      body: upstreamPlayer(DEMO_BANNED_UUID, 'Notch', 7.5, [{ banId: 90001, reason: 'griefing spawn', lostRep: 2.5 }]),
    });
    return this;
  }

  /** Replaces the script of a player. */
  script(uuid: string, ...replies: FakeReply[]): void {
    this.scripts.set(uuid.toLowerCase(), replies);
  }

  requestsFor(uuid: string): Array<{ uuid: string; at: number }> {
    return this.requests.filter((request) => request.uuid === uuid.toLowerCase());
  }

  /** Writes `chunks` then `tail` as fast as the client reads (minding backpressure) and records what got out. */
  private pour(uuid: string, response: ServerResponse, chunks: Iterable<Buffer>, tail: Buffer): void {
    const record: StreamedReply = { uuid, sentBytes: 0, cutOff: false };
    const source = chunks[Symbol.iterator]();
    let closed = false;
    response.on('close', () => {
      closed = true;
      record.cutOff = !response.writableFinished;
      this.streamed.push(record);
    });
    const more = (): void => {
      while (!closed) {
        const next = source.next();
        if (next.done) {
          record.sentBytes += tail.length;
          response.end(tail);
          return;
        }
        record.sentBytes += next.value.length;
        if (!response.write(next.value)) {
          response.once('drain', more);
          return;
        }
      }
    };
    more();
  }

  async stop(): Promise<void> {
    for (const response of this.hanging) {
      response.destroy();
    }
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private answer(uuid: string, reply: FakeReply, response: ServerResponse): void {
    if ('encoded' in reply) {
      response.writeHead(200, { 'content-type': 'application/json', 'content-encoding': reply.encoded }).end(compress(reply.encoded, Buffer.from(JSON.stringify(reply.body))));
      return;
    }
    if ('redirect' in reply) {
      response.writeHead(reply.redirect, { location: reply.location }).end();
      return;
    }
    if ('flood' in reply) {
      const tail = Buffer.from(JSON.stringify(reply.body));
      response.writeHead(200, { 'content-type': 'application/json', ...(reply.declareLength ? { 'content-length': String(reply.flood + tail.length) } : {}) });
      this.pour(uuid, response, repeated(SPACES, reply.flood), tail);
      return;
    }
    if ('drip' in reply) {
      response.writeHead(200, { 'content-type': 'application/json' });
      const record: StreamedReply = { uuid, sentBytes: 0, cutOff: true };
      const timer = setInterval(() => {
        response.write(' ');
        record.sentBytes += 1;
      }, reply.drip);
      response.on('close', () => {
        clearInterval(timer);
        this.streamed.push(record);
      });
      return;
    }
    if ('bomb' in reply) {
      response.writeHead(200, { 'content-type': 'application/json', 'content-encoding': reply.encoding });
      const tail = compress(reply.encoding, Buffer.from(JSON.stringify(reply.body)));
      if (reply.encoding === 'gzip') {
        // Concatenated gzip members are one valid body: a gigabyte costs a few seconds of nothing.
        gzipMember ??= compress('gzip', Buffer.alloc(BOMB_MEMBER_BYTES, ' '));
        this.pour(uuid, response, repeated(gzipMember, Math.ceil(reply.bomb / BOMB_MEMBER_BYTES) * gzipMember.length), tail);
      } else {
        // deflate and br streams do not concatenate: one stream, compressed once and kept.
        const key = `${reply.encoding}:${reply.bomb}:${JSON.stringify(reply.body)}`;
        let whole = compressedBombs.get(key);
        if (whole === undefined) {
          whole = compress(reply.encoding, Buffer.concat([Buffer.alloc(reply.bomb, ' '), Buffer.from(JSON.stringify(reply.body))]));
          compressedBombs.set(key, whole);
        }
        this.pour(uuid, response, [whole], Buffer.alloc(0));
      }
      return;
    }
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

/** `chunk` over and over, `total` bytes in all (the last one cut to fit). */
function* repeated(chunk: Buffer, total: number): Generator<Buffer> {
  for (let left = total; left > 0; left -= chunk.length) {
    yield left >= chunk.length ? chunk : chunk.subarray(0, left);
  }
}
