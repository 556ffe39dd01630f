import { groupsAfterImport, groupsAfterReports } from './group-changes';
import type { GroupRow } from './player-groups.repository';

const at = (iso: string): Date => new Date(iso);

describe('groupsAfterReports', () => {
  it('takes the latest report per player when it is later than the stored row', () => {
    const current = new Map<string, GroupRow>([['b', { uuid: 'b', group: 'admin', expiresAt: null, reportedAt: at('2024-05-01T00:00:00Z'), origin: 'original' }]]);
    expect(
      groupsAfterReports(current, [
        { id: '1', uuid: 'a', group: 'verified', expiresAt: at('2025-01-01T00:00:00Z'), at: at('2024-01-01T00:00:00Z') },
        { id: '2', uuid: 'a', group: 'regular', expiresAt: null, at: at('2023-01-01T00:00:00Z') },
        { id: '3', uuid: 'b', group: 'default', expiresAt: null, at: at('2024-04-01T00:00:00Z') },
      ]),
    ).toEqual([{ uuid: 'a', group: 'verified', expiresAt: at('2025-01-01T00:00:00Z'), reportedAt: at('2024-01-01T00:00:00Z'), origin: 'game-server' }]);
  });
});

describe('groupsAfterImport', () => {
  it('replaces only imported rows, and leaves unchanged rows out', () => {
    const when = at('2024-01-01T00:00:00Z');
    const current = new Map<string, GroupRow>([
      ['a', { uuid: 'a', group: 'admin', expiresAt: null, reportedAt: when, origin: 'game-server' }],
      ['b', { uuid: 'b', group: 'verified', expiresAt: null, reportedAt: when, origin: 'original' }],
      ['c', { uuid: 'c', group: 'verified', expiresAt: null, reportedAt: when, origin: 'original' }],
    ]);
    expect(
      groupsAfterImport(current, [
        { uuid: 'a', group: 'regular', expiresAt: null, at: when },
        { uuid: 'b', group: 'verified', expiresAt: null, at: null },
        { uuid: 'c', group: 'regular', expiresAt: null, at: when },
      ], at('2026-01-01T00:00:00Z')),
    ).toEqual([{ uuid: 'c', group: 'regular', expiresAt: null, reportedAt: when, origin: 'original' }]);
  });

  it('reports a row without a time at the import, once', () => {
    const now = at('2026-01-01T00:00:00Z');
    const [row] = groupsAfterImport(new Map(), [{ uuid: 'd', group: 'verified', expiresAt: null, at: null }], now);
    expect(row).toEqual({ uuid: 'd', group: 'verified', expiresAt: null, reportedAt: now, origin: 'original' });
    expect(groupsAfterImport(new Map([['d', row]]), [{ uuid: 'd', group: 'verified', expiresAt: null, at: null }], at('2026-02-01T00:00:00Z'))).toEqual([]);
  });
});
