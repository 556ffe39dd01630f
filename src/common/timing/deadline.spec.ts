import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DeadlineExceededError, isDeadlineExceeded, raceSignal, startDeadline, withDeadline } from './deadline';

describe('deadline', () => {
  it('aborts with DeadlineExceededError naming the call when the time is up', async () => {
    const started = Date.now();
    const error = await withDeadline(50, () => new Promise<never>(() => undefined), { what: 'the upstream' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DeadlineExceededError);
    expect((error as Error).message).toBe('the upstream did not finish within 50 ms');
    expect(Date.now() - started).toBeGreaterThanOrEqual(45);
  });

  it('returns the result and leaves no listener on the caller signal', async () => {
    const caller = new AbortController();
    const added = jest.spyOn(caller.signal, 'addEventListener');
    const removed = jest.spyOn(caller.signal, 'removeEventListener');
    await expect(withDeadline(1000, () => Promise.resolve(7), { signal: caller.signal })).resolves.toBe(7);
    expect(added).toHaveBeenCalledTimes(1);
    expect(removed).toHaveBeenCalledTimes(1);
  });

  it("follows the caller's signal with the caller's reason", async () => {
    const caller = new AbortController();
    const pending = withDeadline(10_000, () => new Promise<never>(() => undefined), { signal: caller.signal });
    caller.abort(new Error('run stopped'));
    await expect(pending).rejects.toThrow('run stopped');
  });

  it('is aborted at once when the caller already aborted', () => {
    const caller = new AbortController();
    caller.abort(new Error('gone'));
    const deadline = startDeadline(10_000, { signal: caller.signal });
    expect(deadline.signal.aborted).toBe(true);
    deadline.dispose();
  });

  it('does not abort after dispose', async () => {
    const deadline = startDeadline(20);
    deadline.dispose();
    await new Promise((resolve) => setTimeout(resolve, 40));
    expect(deadline.signal.aborted).toBe(false);
  });

  it('ends a fetch to a server that never answers, also when garbage is collected meanwhile', async () => {
    const silent: Server = createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const { port } = silent.address() as AddressInfo;
    const collect = (globalThis as { gc?: () => void }).gc;
    const collector = collect ? setInterval(collect, 20) : undefined;
    try {
      const error = await withDeadline(200, (signal) => fetch(`http://127.0.0.1:${port}/`, { signal }), { what: 'silent' }).catch((e: unknown) => e);
      expect(isDeadlineExceeded(error)).toBe(true);
    } finally {
      clearInterval(collector);
      silent.closeAllConnections();
      silent.close();
    }
  });

  it('raceSignal passes a rejection through as an Error', async () => {
    await expect(raceSignal(Promise.reject(new Error('boom')), new AbortController().signal)).rejects.toThrow('boom');
  });

  it('isDeadlineExceeded looks through causes', () => {
    const wrapped = new Error('fetch failed', { cause: new DeadlineExceededError('x', 1) });
    expect(isDeadlineExceeded(wrapped)).toBe(true);
    expect(isDeadlineExceeded(new Error('other'))).toBe(false);
  });
});
