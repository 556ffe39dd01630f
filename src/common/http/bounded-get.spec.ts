import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { brotliCompressSync, constants as zlibConstants, deflateRawSync, deflateSync, gzipSync } from 'node:zlib';
import { BodyRefusedError, boundedGet } from './bounded-get';

type Handler = (request: IncomingMessage, response: ServerResponse) => void;

/** A loopback server whose handler each test sets; counts connections and what each answer sent. */
class Loopback {
  handler: Handler = (_request, response) => response.end();
  connections = 0;
  private server!: Server;
  base = '';

  async start(): Promise<void> {
    this.server = createServer((request, response) => this.handler(request, response));
    this.server.on('connection', () => (this.connections += 1));
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.base = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

/** Writes `chunk` until the client goes away (or `limit` bytes), minding backpressure; resolves with the bytes written. */
function pour(response: ServerResponse, chunk: Buffer, limit = Infinity): Promise<number> {
  return new Promise((resolve) => {
    let sent = 0;
    let closed = false;
    response.on('close', () => {
      closed = true;
      resolve(sent);
    });
    const more = (): void => {
      while (!closed && sent < limit) {
        sent += chunk.length;
        if (!response.write(chunk)) {
          response.once('drain', more);
          return;
        }
      }
      if (!closed) {
        response.end();
      }
    };
    more();
  });
}

const MAX = 1000;
const server = new Loopback();
const get = (path = '/', signal = new AbortController().signal, maxBytes = MAX) => boundedGet(new URL(path, server.base), { maxBytes, signal });
const refusal = (promise: Promise<unknown>) =>
  promise.then(
    () => {
      throw new Error('expected a refusal');
    },
    (error: unknown) => {
      if (!(error instanceof BodyRefusedError)) {
        throw error;
      }
      return error.problem;
    },
  );

beforeAll(() => server.start());
afterAll(() => server.stop());

describe('boundedGet', () => {
  it('accepts a body of exactly the limit and refuses one byte more', async () => {
    server.handler = (request, response) => response.end('x'.repeat(request.url === '/at' ? MAX : MAX + 1));
    expect((await get('/at')).body.length).toBe(MAX);
    expect(await refusal(get('/over'))).toBe('too-large');
  });

  it('stops reading a body without a length at the limit: the sender sees the connection close', async () => {
    let sent: Promise<number> = Promise.resolve(0);
    server.handler = (_request, response) => {
      sent = pour(response, Buffer.alloc(64 * 1024, ' '), 400 * 1024 * 1024);
    };
    expect(await refusal(get('/', undefined, 1_000_000))).toBe('too-large');
    // 400 MB offered; what got out before the close is the limit plus the sockets' buffers.
    expect(await sent).toBeLessThan(50 * 1024 * 1024);
  });

  it('refuses a declared Content-Length over the limit before reading the body', async () => {
    let sent: Promise<number> = Promise.resolve(0);
    server.handler = (_request, response) => {
      response.writeHead(200, { 'content-length': String(400 * 1024 * 1024) });
      sent = pour(response, Buffer.alloc(64 * 1024, ' '));
    };
    expect(await refusal(get())).toBe('too-large');
    expect(await sent).toBeLessThan(50 * 1024 * 1024);
  });

  it.each([
    ['gzip', 'gzip', (body: Buffer) => gzipSync(body)],
    ['x-gzip', 'x-gzip', (body: Buffer) => gzipSync(body)],
    ['deflate (zlib-wrapped)', 'deflate', (body: Buffer) => deflateSync(body)],
    ['deflate (raw)', 'deflate', (body: Buffer) => deflateRawSync(body)],
    ['br', 'br', (body: Buffer) => brotliCompressSync(body)],
    ['"GZIP " (case and spaces)', 'GZIP ', (body: Buffer) => gzipSync(body)],
  ])('decodes content-encoding %s', async (_label, encoding, encode) => {
    const text = '{"hello":"world"}'.repeat(10);
    server.handler = (request, response) => {
      expect(request.headers['accept-encoding']).toBe('gzip, deflate, br');
      response.writeHead(200, { 'content-encoding': encoding }).end(encode(Buffer.from(text)));
    };
    expect((await get()).body.toString()).toBe(text);
  });

  it.each([
    ['gzip', (body: Buffer) => gzipSync(body)],
    ['deflate', (body: Buffer) => deflateSync(body)],
    ['br', (body: Buffer) => brotliCompressSync(body, { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 4 } })],
  ])('bounds a %s bomb after decompression', async (encoding, encode) => {
    const bomb = encode(Buffer.alloc(20 * 1024 * 1024, ' '));
    expect(bomb.length).toBeLessThan(100 * 1024);
    server.handler = (_request, response) => response.writeHead(200, { 'content-encoding': encoding }).end(bomb);
    expect(await refusal(get('/', undefined, 1_000_000))).toBe('too-large');
  });

  it('refuses an encoding it does not decode, a chain of encodings, and a body that is not what it claims; returns no more than arrived of one cut short', async () => {
    for (const encoding of ['compress', 'gzip, br', 'zstd']) {
      server.handler = (_request, response) => response.writeHead(200, { 'content-encoding': encoding }).end('abc');
      expect(await refusal(get())).toBe('unsupported-encoding');
    }
    server.handler = (_request, response) => response.writeHead(200, { 'content-encoding': 'gzip' }).end('not gzip at all');
    expect(await refusal(get())).toBe('undecodable');
    // A compressed body cut short decodes (as in browsers) to what arrived: less than was sent, so
    // a caller's parse refuses it (the ban-list client: "body is not JSON").
    const whole = '{"a":1}'.repeat(50);
    const cut = gzipSync(Buffer.from(whole));
    server.handler = (_request, response) => response.writeHead(200, { 'content-encoding': 'gzip' }).end(cut.subarray(0, cut.length - 10));
    expect((await get()).body.toString().length).toBeLessThan(whole.length);
  });

  it('aborts mid-body when the signal does, with its reason, and the sender sees the close', async () => {
    let closed: Promise<void> = Promise.resolve();
    server.handler = (_request, response) => {
      response.writeHead(200);
      const drip = setInterval(() => response.write(' '), 20);
      closed = new Promise((resolve) => response.on('close', () => (clearInterval(drip), resolve())));
    };
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error('deadline')), 200);
    await expect(get('/', controller.signal)).rejects.toThrow('deadline');
    await closed;
  });

  it('rejects at once when the signal has already aborted', async () => {
    const controller = new AbortController();
    controller.abort(new Error('gone'));
    await expect(get('/', controller.signal)).rejects.toThrow('gone');
  });

  it('returns a redirect as it is, without following it', async () => {
    const paths: string[] = [];
    server.handler = (request, response) => {
      paths.push(request.url ?? '');
      response.writeHead(302, { location: '/elsewhere' }).end();
    };
    const answer = await get('/start');
    expect(answer.status).toBe(302);
    expect(answer.headers.get('location')).toBe('/elsewhere');
    expect(paths).toEqual(['/start']);
  });

  it('fails with a socket error (retried by the ban-list client) when the peer closes before the body ends', async () => {
    server.handler = (_request, response) => {
      response.writeHead(200, { 'content-length': '100' });
      response.write('short');
      setTimeout(() => response.destroy(), 20);
    };
    await expect(get()).rejects.toMatchObject({ cause: { code: 'UND_ERR_SOCKET' } });
  });

  it('reuses a connection across requests (fetch keeps connections alive)', async () => {
    server.handler = (_request, response) => response.end('{}');
    const before = server.connections;
    for (let index = 0; index < 3; index += 1) {
      await get();
    }
    expect(server.connections - before).toBe(1);
  });
});
