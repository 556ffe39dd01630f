import { BoundedSemaphore, QueueFullError } from './bounded-semaphore';

function gate(): { promise: Promise<void>; open: () => void } {
  let open!: () => void;
  const promise = new Promise<void>((resolve) => (open = resolve));
  return { promise, open };
}

describe(BoundedSemaphore.name, () => {
  it('runs up to `slots` at once, queues up to `maxWaiting`, and refuses the next caller at once', async () => {
    const semaphore = new BoundedSemaphore('test queue', 2, 3);
    const held = gate();
    let running = 0;
    let most = 0;
    const work = async (): Promise<void> => {
      running += 1;
      most = Math.max(most, running);
      await held.promise;
      running -= 1;
    };
    const accepted = Array.from({ length: 5 }, () => semaphore.run(work));
    await Promise.resolve();
    expect(semaphore.waiting).toBe(3);
    await expect(semaphore.run(work)).rejects.toBeInstanceOf(QueueFullError);
    held.open();
    await Promise.all(accepted);
    expect(most).toBe(2);
    expect(semaphore.waiting).toBe(0);
    // Once drained, callers are accepted again.
    await expect(semaphore.run(() => Promise.resolve('ok'))).resolves.toBe('ok');
  });

  it('frees the place of a caller whose work failed', async () => {
    const semaphore = new BoundedSemaphore('test queue', 1, 0);
    await expect(semaphore.run(() => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    await expect(semaphore.run(() => Promise.resolve(1))).resolves.toBe(1);
  });

  it('names the queue and its bound in the error', async () => {
    const semaphore = new BoundedSemaphore('the write queue', 1, 0);
    const held = gate();
    const first = semaphore.run(() => held.promise);
    const refused = await semaphore.run(() => Promise.resolve()).catch((error: unknown) => error);
    expect(refused).toMatchObject({ code: 'QUEUE_FULL', queue: 'the write queue', limit: 0 });
    held.open();
    await first;
  });
});
