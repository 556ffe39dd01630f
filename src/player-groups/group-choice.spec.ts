import { currentGroup, normaliseGroup } from './group-choice';

const at = (iso: string): Date => new Date(iso);

describe('currentGroup', () => {
  const report = { group: 'verified', expiresAt: at('2025-01-01T00:00:00Z'), reportedAt: at('2024-06-01T00:00:00Z') };

  it('is default with nothing known', () => {
    expect(currentGroup(null, { permission: null, lastLogin: null })).toEqual({ group: 'default', reportedAt: null, expiresAt: null });
  });

  it('takes the report when no login is newer', () => {
    expect(currentGroup(report, { permission: 'Admin', lastLogin: at('2024-05-01T00:00:00Z') })).toEqual(report);
    expect(currentGroup(report, { permission: null, lastLogin: at('2024-07-01T00:00:00Z') })).toEqual(report);
  });

  it("falls back to the latest login's permission, lower case, when it is newer", () => {
    expect(currentGroup(report, { permission: 'Regular', lastLogin: at('2024-07-01T00:00:00Z') })).toEqual({ group: 'regular', reportedAt: at('2024-07-01T00:00:00Z'), expiresAt: null });
    expect(currentGroup(null, { permission: 'Default', lastLogin: at('2024-07-01T00:00:00Z') })).toEqual({ group: 'default', reportedAt: at('2024-07-01T00:00:00Z'), expiresAt: null });
  });

  it('keeps the end of a temporary group the newer login still carries', () => {
    expect(currentGroup(report, { permission: 'Verified', lastLogin: at('2024-07-01T00:00:00Z') })).toEqual({ group: 'verified', reportedAt: at('2024-07-01T00:00:00Z'), expiresAt: report.expiresAt });
  });
});

describe('normaliseGroup', () => {
  it('lower-cases and trims; empty is none', () => {
    expect(normaliseGroup(' CommunityRegular ')).toBe('communityregular');
    expect(normaliseGroup('  ')).toBeNull();
    expect(normaliseGroup(null)).toBeNull();
  });
});
