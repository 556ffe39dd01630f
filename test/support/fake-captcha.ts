import { createServer, IncomingMessage, Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A CAPTCHA verifier speaking the siteverify protocol, on loopback. The `response` token scripts
 * the answer: `pass`, `fail`, `low-score`, `error-500`, `hang`, `endless` (a 200 whose body never
 * ends: the service must stop reading it at its bound); anything else fails. A passing
 * answer names `hostname` club.example.org and `action` login unless the token says otherwise:
 * `pass;hostname=evil.example;action=register`.
 */
export class FakeCaptcha {
  readonly requests: Array<Record<string, string>> = [];
  /** Bytes the last `endless` answer got out before the client closed the connection. */
  endlessBytesSent = 0;
  private server!: Server;

  static readonly SECRET = 'test-captcha-secret';

  async start(): Promise<string> {
    this.server = createServer((request, response) => {
      void readForm(request).then((form) => {
        this.requests.push(form);
        const reply = (status: number, body: unknown): void => {
          response.writeHead(status, { 'content-type': 'application/json' });
          response.end(JSON.stringify(body));
        };
        const token = form.response ?? '';
        if (form.secret !== FakeCaptcha.SECRET) {
          reply(200, { success: false, 'error-codes': ['invalid-input-secret'] });
        } else if (token === 'hang') {
          // Never answers: the service's timeout must fire.
        } else if (token === 'endless') {
          response.writeHead(200, { 'content-type': 'application/json' });
          const pad = Buffer.alloc(64 * 1024, ' ');
          response.write('{"success":true,"pad":"');
          this.endlessBytesSent = 0;
          const more = (): void => {
            // Until the client goes away: write, and wait whenever the socket pushes back.
            while (!response.destroyed) {
              this.endlessBytesSent += pad.length;
              if (!response.write(pad)) {
                response.once('drain', more);
                return;
              }
            }
          };
          response.on('close', () => response.removeAllListeners('drain'));
          more();
        } else if (token === 'error-500') {
          reply(500, { error: 'boom' });
        } else if (token === 'low-score') {
          reply(200, { success: true, score: 0.1 });
        } else if (token === 'pass' || token.startsWith('pass')) {
          const named = new URLSearchParams(token.split(';').slice(1).join('&'));
          reply(200, { success: true, score: 0.9, hostname: named.get('hostname') ?? 'club.example.org', action: named.get('action') ?? 'login' });
        } else {
          reply(200, { success: false, 'error-codes': ['invalid-input-response'] });
        }
      });
    });
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    const { port } = this.server.address() as AddressInfo;
    return `http://127.0.0.1:${port}/siteverify`;
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

async function readForm(request: IncomingMessage): Promise<Record<string, string>> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) {
    chunks.push(chunk as Buffer);
  }
  return Object.fromEntries(new URLSearchParams(Buffer.concat(chunks).toString('utf8')));
}
