import { ApiError } from '../common/errors/api-error';
import { checkReports, type SessionBatchInput } from './play-sessions.service';

const now = new Date('2026-11-27T00:00:00Z');
const base = { id: 's', uuid: '069a79f4-44e9-4726-a5be-fca90e38aaf5', mcid: 'Notch', startedAt: new Date('2026-11-26T00:00:00Z') };

function faultsOf(batch: SessionBatchInput): string[] {
  try {
    checkReports(batch, now);
    return [];
  } catch (error) {
    expect(error).toBeInstanceOf(ApiError);
    return ((error as ApiError).details ?? []).map((entry) => entry.field);
  }
}

describe(checkReports.name, () => {
  it('takes reports whose times are in order', () => {
    expect(faultsOf({ reporter: 'k/', sessions: [{ ...base, lastActiveAt: new Date('2026-11-26T01:00:00Z'), endedAt: new Date('2026-11-26T01:00:00Z') }] })).toEqual([]);
    // Up to five minutes ahead of the clock.
    expect(faultsOf({ reporter: 'k/', sessions: [{ ...base, endedAt: new Date('2026-11-27T00:04:59Z') }] })).toEqual([]);
  });

  it('names every element whose times are out of order, ahead of the clock or a month apart', () => {
    expect(
      faultsOf({
        reporter: 'k/',
        serverStartedAt: new Date('2026-11-28T00:00:00Z'),
        sessions: [
          { ...base, lastActiveAt: new Date('2026-11-25T00:00:00Z') },
          { ...base, lastActiveAt: new Date('2026-11-26T02:00:00Z'), endedAt: new Date('2026-11-26T01:00:00Z') },
          { ...base, startedAt: new Date('2026-10-01T00:00:00Z'), endedAt: new Date('2026-11-26T00:00:00Z') },
          { ...base, startedAt: new Date('2026-11-27T01:00:00Z') },
        ],
      }),
    ).toEqual(['serverStartedAt', 'sessions.0.lastActiveAt', 'sessions.1.endedAt', 'sessions.2.endedAt', 'sessions.3.startedAt']);
  });
});
