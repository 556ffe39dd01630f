import { applyReport, type SessionReport } from './session-reports';

const report = (overrides: Partial<SessionReport> = {}): SessionReport => ({ sourceId: 's1', uuid: 'u', startedAt: 1000, lastActiveAt: null, endedAt: null, ...overrides });

describe(applyReport.name, () => {
  it('creates a session from its join, counting nothing yet', () => {
    expect(applyReport(undefined, report())).toEqual({ kind: 'created', session: { sourceId: 's1', uuid: 'u', startedAt: 1000, countedUntil: 1000, endedAt: null }, span: null });
  });

  it('creates a whole session from one report with its quit', () => {
    expect(applyReport(undefined, report({ lastActiveAt: 1500, endedAt: 1600 }))).toMatchObject({ kind: 'created', session: { countedUntil: 1600, endedAt: 1600 }, span: { from: 1000, to: 1600 } });
  });

  it('adds only the new stretch of a later activity, and nothing for a re-send or an older one', () => {
    const stored = { sourceId: 's1', uuid: 'u', startedAt: 1000, countedUntil: 1300, endedAt: null };
    expect(applyReport(stored, report({ lastActiveAt: 1500 }))).toEqual({ kind: 'updated', session: { ...stored, countedUntil: 1500 }, span: { from: 1300, to: 1500 } });
    expect(applyReport(stored, report({ lastActiveAt: 1300 }))).toEqual({ kind: 'unchanged', session: stored });
    expect(applyReport(stored, report({ lastActiveAt: 1100 }))).toEqual({ kind: 'unchanged', session: stored });
  });

  it('ends a session at its quit, or at its last activity when the quit is older', () => {
    const stored = { sourceId: 's1', uuid: 'u', startedAt: 1000, countedUntil: 1300, endedAt: null };
    expect(applyReport(stored, report({ endedAt: 1400 }))).toEqual({ kind: 'updated', session: { ...stored, countedUntil: 1400, endedAt: 1400 }, span: { from: 1300, to: 1400 } });
    expect(applyReport(stored, report({ endedAt: 1200 }))).toEqual({ kind: 'updated', session: { ...stored, endedAt: 1300 }, span: null });
  });

  it('changes an ended session no more', () => {
    const ended = { sourceId: 's1', uuid: 'u', startedAt: 1000, countedUntil: 1300, endedAt: 1300 };
    expect(applyReport(ended, report({ lastActiveAt: 2000, endedAt: 2000 }))).toEqual({ kind: 'unchanged', session: ended });
  });

  it('refuses an id that names another player or another start', () => {
    const stored = { sourceId: 's1', uuid: 'u', startedAt: 1000, countedUntil: 1300, endedAt: null };
    expect(applyReport(stored, report({ uuid: 'v' }))).toMatchObject({ kind: 'conflict', field: 'uuid' });
    expect(applyReport(stored, report({ startedAt: 999 }))).toMatchObject({ kind: 'conflict', field: 'startedAt' });
  });
});
