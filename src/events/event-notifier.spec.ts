import { ApiError } from '../common/errors/api-error';
import { AppConfig } from '../config/app-config';
import { EventNotifier } from './event-notifier';
import type { EventsRepository } from './events.repository';

function notifierWith(lastEventId: () => Promise<number>, maxWaiters = 1000, shares: Partial<AppConfig> = {}): EventNotifier {
  const config = Object.assign(new AppConfig(), { EVENTS_MAX_WAITERS: maxWaiters, ...shares });
  return new EventNotifier(config, { lastEventId } as unknown as EventsRepository);
}

describe(EventNotifier.name, () => {
  afterEach(() => {
    jest.useRealTimers();
  });

  it('never has more than one poll query in flight while the database stalls', async () => {
    jest.useFakeTimers();
    const lastEventId = jest.fn(() => new Promise<number>(() => undefined));
    const notifier = notifierWith(lastEventId);
    const waiting = notifier.nextWake(10_000, 0);
    await jest.advanceTimersByTimeAsync(2_600);
    // Ten ticks of 250 ms went by; a stalled query is not joined by nine more.
    expect(lastEventId).toHaveBeenCalledTimes(1);
    notifier.onModuleDestroy();
    await waiting;
  });

  it('polls again once the stalled query has settled', async () => {
    jest.useFakeTimers();
    let settle: (value: number) => void = () => undefined;
    const lastEventId = jest.fn(() => new Promise<number>((resolve) => (settle = resolve)));
    const notifier = notifierWith(lastEventId);
    const waiting = notifier.nextWake(10_000, 5);
    await jest.advanceTimersByTimeAsync(1_000);
    settle(5);
    await jest.advanceTimersByTimeAsync(300);
    expect(lastEventId).toHaveBeenCalledTimes(2);
    notifier.onModuleDestroy();
    await waiting;
  });

  it('refuses a waiter past EVENTS_MAX_WAITERS with a 503 that says when to retry', () => {
    const notifier = notifierWith(() => Promise.resolve(0), 2);
    notifier.takePlace({ apiKey: 'key-1', address: '192.0.2.1' });
    notifier.takePlace({ apiKey: 'key-2', address: '192.0.2.2' });
    const refusal = catchError(() => notifier.takePlace({ apiKey: 'key-3', address: '192.0.2.3' }));
    expect(refusal.getStatus()).toBe(503);
    expect(refusal.headers).toEqual({ 'Retry-After': '1' });
    notifier.onModuleDestroy();
  });

  it('refuses a waiter past its API key\'s or address\'s share with a 429, and gives the place back on release', () => {
    const notifier = notifierWith(() => Promise.resolve(0), 1000, { EVENTS_MAX_WAITERS_PER_KEY: 2, EVENTS_MAX_WAITERS_PER_ADDRESS: 3 });
    const release = notifier.takePlace({ apiKey: 'key-1', address: '192.0.2.1' });
    notifier.takePlace({ apiKey: 'key-1', address: '192.0.2.2' });
    const byKey = catchError(() => notifier.takePlace({ apiKey: 'key-1', address: '192.0.2.3' }));
    expect(byKey.getStatus()).toBe(429);
    expect(byKey.headers).toEqual({ 'Retry-After': '5' });
    expect(byKey.message).toMatch(/API key already has 2 long-polls/);
    notifier.takePlace({ apiKey: 'key-2', address: '192.0.2.1' });
    notifier.takePlace({ apiKey: 'key-3', address: '192.0.2.1' });
    expect(catchError(() => notifier.takePlace({ apiKey: 'key-4', address: '192.0.2.1' })).message).toMatch(/address already has 3/);
    release();
    expect(() => notifier.takePlace({ apiKey: 'key-1', address: '192.0.2.9' })).not.toThrow();
    notifier.onModuleDestroy();
  });
});

function catchError(action: () => unknown): ApiError {
  try {
    action();
  } catch (error) {
    if (error instanceof ApiError) {
      return error;
    }
    throw error;
  }
  throw new Error('expected a refusal');
}
