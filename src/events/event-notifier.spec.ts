import type { DataSource } from 'typeorm';
import { ApiError } from '../common/errors/api-error';
import { AppConfig } from '../config/app-config';
import { EventNotifier } from './event-notifier';
import type { EventsRepository } from './events.repository';

function notifierWith(lastEventId: () => Promise<number>, maxWaiters = 1000): EventNotifier {
  const config = Object.assign(new AppConfig(), { EVENTS_MAX_WAITERS: maxWaiters });
  const dataSource = { subscribers: [] } as unknown as DataSource;
  return new EventNotifier(config, dataSource, { lastEventId } as unknown as EventsRepository);
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

  it('refuses a waiter past EVENTS_MAX_WAITERS with a 503 that says when to retry', async () => {
    const notifier = notifierWith(() => Promise.resolve(0), 2);
    const first = notifier.nextWake(5_000, 0);
    const second = notifier.nextWake(5_000, 0);
    const refusal = await notifier.nextWake(5_000, 0).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(refusal).toBeInstanceOf(ApiError);
    expect((refusal as ApiError).getStatus()).toBe(503);
    expect((refusal as ApiError).headers).toEqual({ 'Retry-After': '1' });
    notifier.onModuleDestroy();
    await Promise.all([first, second]);
  });
});
