import { ScheduleModule, SchedulerRegistry } from '@nestjs/schedule';
import { Test } from '@nestjs/testing';
import { EVENTS_RETENTION_JOB, EventsRetention, EventsRetentionJob, eventsRetentionJobProvider } from './events-retention';

const HOUR_MS = 60 * 60_000;

/** A purge that stays pending until `finish` is called, counting its runs. */
function slowRetention() {
  const state = { runs: 0, finish: (): void => undefined };
  const retention = {
    purge: () => {
      state.runs += 1;
      return new Promise((resolve) => {
        state.finish = () => resolve({ events: 0, deliveries: 0, attempts: 0 });
      });
    },
  } as unknown as EventsRetention;
  return { retention, state };
}

async function moduleWith(retention: EventsRetention, scheduler: boolean) {
  const moduleRef = await Test.createTestingModule({
    imports: scheduler ? [ScheduleModule.forRoot()] : [],
    providers: [{ provide: EventsRetention, useValue: retention }, eventsRetentionJobProvider],
  }).compile();
  return moduleRef.init();
}

describe(EventsRetentionJob.name, () => {
  afterEach(() => {
    jest.useRealTimers();
  });

  it('purges a minute after start and then hourly, on the scheduler, and stops with the application', async () => {
    jest.useFakeTimers();
    const { retention, state } = slowRetention();
    const app = await moduleWith(retention, true);
    expect(app.get(SchedulerRegistry).getInterval(EVENTS_RETENTION_JOB)).toBeDefined();
    await jest.advanceTimersByTimeAsync(60_000);
    expect(state.runs).toBe(1);
    state.finish();
    await jest.advanceTimersByTimeAsync(HOUR_MS - 60_000);
    expect(state.runs).toBe(2);
    state.finish();
    await app.close();
    await jest.advanceTimersByTimeAsync(3 * HOUR_MS);
    expect(state.runs).toBe(2);
  });

  it('never runs two purges at once: a tick during a purge joins it', async () => {
    jest.useFakeTimers();
    const { retention, state } = slowRetention();
    const app = await moduleWith(retention, true);
    await jest.advanceTimersByTimeAsync(3 * HOUR_MS);
    expect(state.runs).toBe(1);
    state.finish();
    await jest.advanceTimersByTimeAsync(HOUR_MS);
    expect(state.runs).toBe(2);
    state.finish();
    await app.close();
  });

  it('does not exist without a scheduler (the command line)', async () => {
    const app = await moduleWith(slowRetention().retention, false);
    expect(app.get(EventsRetentionJob)).toBeNull();
    await app.close();
  });
});
