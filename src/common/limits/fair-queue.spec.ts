import { QueueFullError } from './bounded-semaphore';
import { FairQueue, ShareExceededError } from './fair-queue';

/** Work that finishes when the test says so. */
function gate(): { promise: Promise<void>; open: () => void } {
  let open!: () => void;
  const promise = new Promise<void>((resolve) => (open = resolve));
  return { promise, open };
}

const flush = () => new Promise((resolve) => setImmediate(resolve));

function queue(overrides: Partial<ConstructorParameters<typeof FairQueue>[0]> = {}): FairQueue {
  return new FairQueue({ name: 'the test queue', slots: 1, maxWaiting: 100, shares: { account: 100, address: 100 }, turnBy: 'address', ...overrides });
}

describe(FairQueue.name, () => {
  it('serves waiting callers in turn by address, not in arrival order', async () => {
    const fair = queue();
    const order: string[] = [];
    const blocker = gate();
    const first = fair.run({ account: 'a', address: 'flood' }, () => blocker.promise);
    const runs: Array<Promise<void>> = [];
    for (let index = 0; index < 5; index += 1) {
      runs.push(fair.run({ account: 'a', address: 'flood' }, () => Promise.resolve(void order.push(`flood-${index}`))));
    }
    runs.push(fair.run({ account: 'b', address: 'other' }, () => Promise.resolve(void order.push('other-0'))));
    runs.push(fair.run({ account: 'c', address: 'third' }, () => Promise.resolve(void order.push('third-0'))));
    runs.push(fair.run({ account: 'b', address: 'other' }, () => Promise.resolve(void order.push('other-1'))));
    expect(fair.waiting).toBe(8);
    blocker.open();
    await Promise.all([first, ...runs]);
    expect(order).toEqual(['flood-0', 'other-0', 'third-0', 'flood-1', 'other-1', 'flood-2', 'flood-3', 'flood-4']);
    expect(fair.waiting).toBe(0);
  });

  it('refuses a caller past its share of places (running or waiting) with ShareExceededError, and lets others in', async () => {
    const fair = queue({ shares: { account: 2, address: 3 } });
    const blocker = gate();
    const held = [fair.run({ account: 'a', address: 'x' }, () => blocker.promise), fair.run({ account: 'a', address: 'x' }, () => blocker.promise)];
    await expect(fair.run({ account: 'a', address: 'y' }, () => Promise.resolve('no'))).rejects.toMatchObject({ name: 'ShareExceededError', keyKind: 'account', share: 2 });
    // Another account from the same address gets the address's third place, then the address is full.
    const third = fair.run({ account: 'b', address: 'x' }, () => Promise.resolve('b'));
    const refused = await fair.run({ account: 'c', address: 'x' }, () => Promise.resolve('no')).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ShareExceededError);
    expect(refused).toMatchObject({ keyKind: 'address', share: 3, retryAfterSeconds: expect.any(Number) });
    expect((refused as ShareExceededError).retryAfterSeconds).toBeGreaterThanOrEqual(1);
    // Anyone else still gets in.
    const other = fair.run({ account: 'd', address: 'z' }, () => Promise.resolve('d'));
    blocker.open();
    await Promise.all(held);
    await expect(third).resolves.toBe('b');
    await expect(other).resolves.toBe('d');
    // Places are given back when the work ends, also when it fails.
    expect(fair.placesHeld('account', 'a')).toBe(0);
    await expect(fair.run({ account: 'a', address: 'x' }, () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(fair.placesHeld('account', 'a')).toBe(0);
    expect(fair.placesHeld('address', 'x')).toBe(0);
  });

  it('holds a reservation\'s places from reserve to release, before and after its work runs', async () => {
    const fair = queue({ shares: { account: 1 } });
    const reservation = fair.reserve({ account: 'a', address: 'x' });
    expect(() => fair.reserve({ account: 'a', address: 'y' })).toThrow(ShareExceededError);
    expect(() => fair.reserve({ account: 'b', address: 'x' }).release()).not.toThrow();
    await expect(reservation.run(() => Promise.resolve('ran'))).resolves.toBe('ran');
    // Still held after the work: the caller may have more to do before it is done.
    expect(fair.placesHeld('account', 'a')).toBe(1);
    reservation.release();
    reservation.release();
    expect(fair.placesHeld('account', 'a')).toBe(0);
    expect(() => fair.reserve({ account: 'a', address: 'y' }).release()).not.toThrow();
  });

  it('refuses past maxWaiting in total with QueueFullError (503), whoever asks', async () => {
    const fair = queue({ maxWaiting: 2 });
    const blocker = gate();
    const runs = [1, 2, 3].map((index) => fair.run({ account: `a${index}`, address: `x${index}` }, () => blocker.promise));
    await expect(fair.run({ account: 'late', address: 'late' }, () => Promise.resolve())).rejects.toBeInstanceOf(QueueFullError);
    await expect(fair.run(undefined, () => Promise.resolve())).rejects.toBeInstanceOf(QueueFullError);
    blocker.open();
    await Promise.all(runs);
    await expect(fair.run({ account: 'late', address: 'late' }, () => Promise.resolve('in'))).resolves.toBe('in');
  });

  it('runs at most `slots` at once and never holds a share against work without a caller', async () => {
    const fair = queue({ slots: 2, shares: { account: 1 } });
    let running = 0;
    let most = 0;
    const work = async () => {
      running += 1;
      most = Math.max(most, running);
      await flush();
      running -= 1;
    };
    await Promise.all(Array.from({ length: 10 }, () => fair.run(undefined, work)));
    expect(most).toBe(2);
  });

  it('says to retry later the longer the queue, at one second at least', async () => {
    const fair = queue({ shares: { account: 1 }, initialWorkMs: 500 });
    const blocker = gate();
    const runs = Array.from({ length: 6 }, (_, index) => fair.run({ account: `a${index}`, address: 'x' }, () => blocker.promise));
    const refused = (await fair.run({ account: 'a0', address: 'y' }, () => Promise.resolve()).catch((error: unknown) => error)) as ShareExceededError;
    // Six pieces of 500 ms on one slot: three seconds.
    expect(refused.retryAfterSeconds).toBe(3);
    blocker.open();
    await Promise.all(runs);
  });
});
