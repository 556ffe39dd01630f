import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export interface ReceivedRequest {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
  /** Date.now() when the request arrived. */
  at: number;
}

/** What the receiver does with the n-th request (0-based): a status, a status with a body (after `delayMs`), or hang. */
export type Answer = number | { status: number; body?: string; headers?: Record<string, string>; delayMs?: number } | 'hang';

/**
 * A webhook receiver: a real HTTP server on 127.0.0.1 that records every request and answers as
 * the test scripts it (`answers` in order, then `fallback`).
 */
export class WebhookReceiver {
  readonly requests: ReceivedRequest[] = [];
  private server: Server | undefined;
  private readonly sockets = new Set<Socket>();
  private waiters: Array<() => void> = [];
  answers: Answer[] = [];
  fallback: Answer = 200;
  /** Called for each request; may return an answer that overrides the script. */
  decide: ((request: ReceivedRequest, index: number) => Answer | undefined) | undefined;
  url = '';
  port = 0;

  static async start(path = '/hook'): Promise<WebhookReceiver> {
    const receiver = new WebhookReceiver();
    await receiver.listen(path);
    return receiver;
  }

  private listen(path: string, port = 0): Promise<void> {
    const server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const received: ReceivedRequest = { method: request.method ?? '', url: request.url ?? '', headers: request.headers, body: Buffer.concat(chunks).toString('utf8'), at: Date.now() };
        const index = this.requests.length;
        this.requests.push(received);
        const answer = this.decide?.(received, index) ?? this.answers[index] ?? this.fallback;
        this.respond(response, answer);
        const waiters = this.waiters;
        this.waiters = [];
        waiters.forEach((wake) => wake());
      });
    });
    server.on('connection', (socket) => {
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
    });
    this.server = server;
    return new Promise((resolve) =>
      server.listen(port, '127.0.0.1', () => {
        this.port = (server.address() as AddressInfo).port;
        this.url = `http://127.0.0.1:${this.port}${path}`;
        resolve();
      }),
    );
  }

  private respond(response: ServerResponse, answer: Answer): void {
    if (answer === 'hang') {
      return;
    }
    const { status, body, headers, delayMs } = typeof answer === 'number' ? { status: answer, body: '', headers: {}, delayMs: 0 } : answer;
    const send = (): void => {
      if (!response.destroyed) {
        response.writeHead(status, { 'content-type': 'application/json', ...headers }).end(body ?? '');
      }
    };
    if (delayMs) {
      setTimeout(send, delayMs);
    } else {
      send();
    }
  }

  /** Resolves once `count` requests have arrived (rejects after `timeoutMs`). */
  async waitFor(count: number, timeoutMs = 20_000): Promise<ReceivedRequest[]> {
    const deadline = Date.now() + timeoutMs;
    while (this.requests.length < count) {
      const remaining = deadline - Date.now();
      if (remaining <= 0) {
        throw new Error(`expected ${count} webhook requests, got ${this.requests.length}`);
      }
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, Math.min(remaining, 200));
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
    return this.requests.slice(0, count);
  }

  /** JSON bodies of the requests so far. */
  bodies<T = Record<string, unknown>>(): T[] {
    return this.requests.map((request) => JSON.parse(request.body) as T);
  }

  async stop(): Promise<void> {
    for (const socket of this.sockets) {
      socket.destroy();
    }
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}

/** Receivers a test file starts as it goes, all stopped at its end with `stopAll()`. */
export class WebhookReceivers {
  private readonly started: WebhookReceiver[] = [];

  async start(path?: string): Promise<WebhookReceiver> {
    const receiver = await WebhookReceiver.start(path);
    this.started.push(receiver);
    return receiver;
  }

  async stopAll(): Promise<void> {
    await Promise.all(this.started.splice(0).map((receiver) => receiver.stop()));
  }
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
