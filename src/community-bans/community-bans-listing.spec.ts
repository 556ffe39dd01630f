import { communityServerMatcher, followListing, type HeldBan, type ListedBan } from './community-bans-listing';

const PLAYER = '069a79f4-44e9-4726-a5be-fca90e38aaf5';
const OTHER = '0f0f0f0f-0f0f-4f0f-8f0f-0f0f0f0f0f0f';
const ours = communityServerMatcher('Play.Example.NET');

const listed = (banId: number, fields: Partial<ListedBan> = {}): ListedBan => ({
  banId,
  type: 'global',
  reason: 'griefing',
  server: 'play.example.net',
  bannedBy: 'Moderator',
  bannedAt: new Date('2021-01-01T00:00:00Z'),
  ...fields,
});
const held = (banId: number, fields: Partial<HeldBan> = {}): HeldBan => ({
  banId,
  playerUuid: PLAYER,
  type: 'global',
  reason: 'griefing',
  bannedBy: 'Moderator',
  bannedAt: new Date('2021-01-01T00:00:00Z'),
  bannedAtFrom: 'mirror',
  active: true,
  ...fields,
});

describe(communityServerMatcher.name, () => {
  it("matches the setting's address in any case and nothing without a setting", () => {
    expect([' play.example.net ', 'PLAY.EXAMPLE.NET', 'play.example.net:25565', 'other.example.net', null].map(ours)).toEqual([true, true, false, false, false]);
    expect(communityServerMatcher(undefined)('play.example.net')).toBe(false);
    expect(communityServerMatcher('')('')).toBe(false);
  });
});

describe(followListing.name, () => {
  it("adds the bans of the community's server that are not held, and only those", () => {
    const outcome = followListing(PLAYER, [], [listed(1), listed(2, { server: 'elsewhere.example.org' }), listed(3, { server: null, type: 'local' })], ours);
    expect(outcome).toEqual({ added: [{ ...listed(1), playerUuid: PLAYER }], changed: [] });
  });

  it('changes nothing when the listing agrees with what is held', () => {
    expect(followListing(PLAYER, [held(1)], [listed(1)], ours)).toEqual({ added: [], changed: [] });
  });

  it('keeps a held record the service no longer lists, no longer in force; a lifted one stays as it is', () => {
    expect(followListing(PLAYER, [held(1), held(2, { active: false })], [], ours).changed).toEqual([{ banId: 1, changes: { active: false } }]);
  });

  it('puts a listed record back in force and follows its type, reason, player and issuer, whatever its server now says', () => {
    const record = held(1, { active: false, type: 'local', reason: 'old', playerUuid: OTHER, bannedBy: 'Old' });
    expect(followListing(PLAYER, [record], [listed(1, { server: 'renamed.example.net' })], ours).changed).toEqual([
      { banId: 1, changes: { playerUuid: PLAYER, type: 'global', reason: 'griefing', bannedBy: 'Moderator', active: true } },
    ]);
    // The service names no issuer: the held one stays.
    expect(followListing(PLAYER, [held(1)], [listed(1, { bannedBy: null })], ours).changed).toEqual([]);
  });

  it("takes the service's time unless the original database gave one", () => {
    const later = new Date('2022-02-02T00:00:00Z');
    expect(followListing(PLAYER, [held(1, { bannedAtFrom: 'import', bannedAt: new Date() })], [listed(1, { bannedAt: later })], ours).changed).toEqual([
      { banId: 1, changes: { bannedAt: later, bannedAtFrom: 'mirror' } },
    ]);
    expect(followListing(PLAYER, [held(1, { bannedAtFrom: 'source' })], [listed(1, { bannedAt: later })], ours).changed).toEqual([]);
  });

  it("leaves another player's records alone when they are not listed here", () => {
    expect(followListing(PLAYER, [held(5, { playerUuid: OTHER })], [], ours)).toEqual({ added: [], changed: [] });
  });
});
