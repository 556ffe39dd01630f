import { createConnection, createServer, type AddressInfo, type Server, type Socket } from 'node:net';

type Mode = 'up' | 'down' | 'blackhole' | 'paused';

interface Pair {
  client: Socket;
  upstream: Socket;
}

/**
 * A TCP proxy on loopback between the service and its database, to take the database away
 * without touching the shared server:
 * - `down()`: resets every open connection and every new one (the server is gone);
 * - `blackhole()`: accepts connections but forwards nothing (a silent network partition);
 * - `pause()`: open and new connections stay open but nothing flows either way (a stalled peer or
 *   network); what was sent meanwhile is delivered by `up()`, as TCP would after the stall;
 * - `resetOpen()`: resets every open connection; new ones are forwarded (a peer restarted);
 * - `slow(ms)`: delays every packet;
 * - `dropWhenClientSends(text)`: resets the connection that sends `text` (a failure mid-transaction);
 * - `up()`: forwards again.
 */
export class TcpProxy {
  private server: Server | undefined;
  private readonly pairs = new Set<Pair>();
  private mode: Mode = 'up';
  private trap: { needle: Buffer; sprung: () => void } | undefined;
  private latencyMs = 0;
  private readonly held: { chunk: Buffer; to: Socket }[] = [];

  constructor(
    private readonly targetHost: string,
    private readonly targetPort: number,
  ) {}

  async start(): Promise<number> {
    this.server = createServer((client) => this.accept(client));
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    return (this.server.address() as AddressInfo).port;
  }

  get openConnections(): number {
    return this.pairs.size;
  }

  up(): void {
    this.mode = 'up';
    this.latencyMs = 0;
    const held = this.held.splice(0);
    for (const { chunk, to } of held) {
      if (!to.destroyed) {
        to.write(chunk);
      }
    }
  }

  /** Open connections stall (nothing is forwarded, nothing is closed); new ones connect and stall too. */
  pause(): void {
    this.mode = 'paused';
  }

  /** Resets every open connection (both sides see a reset); later connections are forwarded. */
  resetOpen(): void {
    this.resetAll();
  }

  /** Delays every packet (both ways) by `ms`, so that requests are reliably in flight. */
  slow(ms: number): void {
    this.latencyMs = ms;
  }

  down(): void {
    this.mode = 'down';
    this.resetAll();
  }

  /** Resets what is open now; later connections hang without an answer. */
  blackhole(): void {
    this.resetAll();
    this.mode = 'blackhole';
  }

  /** Resolves once a client packet containing `text` arrived and its connection was reset instead of forwarded. */
  dropWhenClientSends(text: string): Promise<void> {
    return new Promise((resolve) => {
      this.trap = { needle: Buffer.from(text, 'utf8'), sprung: resolve };
    });
  }

  async stop(): Promise<void> {
    this.resetAll();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  private accept(client: Socket): void {
    client.on('error', () => undefined);
    if (this.mode === 'down') {
      client.resetAndDestroy();
      return;
    }
    const upstream = this.mode === 'blackhole' ? undefined : createConnection({ host: this.targetHost, port: this.targetPort });
    if (!upstream) {
      // Held open, never answered: the client's own timeout has to fire.
      const held: Pair = { client, upstream: client };
      this.pairs.add(held);
      client.on('close', () => this.pairs.delete(held));
      return;
    }
    const pair: Pair = { client, upstream };
    this.pairs.add(pair);
    upstream.on('error', () => undefined);
    client.on('data', (chunk: Buffer) => {
      if (this.trap && chunk.includes(this.trap.needle)) {
        const { sprung } = this.trap;
        this.trap = undefined;
        this.reset(pair);
        sprung();
        return;
      }
      this.forward(chunk, upstream);
    });
    upstream.on('data', (chunk: Buffer) => this.forward(chunk, client));
    const close = (): void => this.reset(pair);
    client.on('close', close);
    upstream.on('close', close);
  }

  private forward(chunk: Buffer, to: Socket): void {
    const write = (): void => {
      if (this.mode === 'paused') {
        this.held.push({ chunk, to });
      } else if (this.mode === 'up' && !to.destroyed) {
        to.write(chunk);
      }
    };
    if (this.latencyMs > 0) {
      setTimeout(write, this.latencyMs);
    } else {
      write();
    }
  }

  private resetAll(): void {
    for (const pair of [...this.pairs]) {
      this.reset(pair);
    }
  }

  private reset(pair: Pair): void {
    this.pairs.delete(pair);
    for (const socket of [pair.client, pair.upstream]) {
      if (socket.destroyed) {
        continue;
      }
      if (socket.writableEnded) {
        // Already closing its side: libuv refuses a reset while a shutdown is pending, and Node
        // then leaves the socket's handle open for the life of the process (the test run would
        // never exit). Closing is all that is left to do.
        socket.destroy();
      } else {
        socket.resetAndDestroy();
      }
    }
  }
}
