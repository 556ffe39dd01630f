import { BanRow, toBanView, toBanlistUserView } from './banlist.repository';

describe(toBanlistUserView.name, () => {
  it('counts and sorts the ids per type', () => {
    const bans = [
      { banId: 30, type: 'global' as const },
      { banId: 5, type: 'local' as const },
      { banId: 10, type: 'global' as const },
    ];
    expect(toBanlistUserView({ uuid: 'u', reputation: 6.5, syncedAt: '2026-01-01 00:00:00.000' }, bans)).toEqual({
      uuid: 'u',
      reputation: 6.5,
      global: 2,
      globalIds: [10, 30],
      local: 1,
      localIds: [5],
      syncedAt: '2026-01-01T00:00:00.000Z',
    });
  });

  it('maps MySQL values (DATETIME as a Date); ids sort as numbers', () => {
    const bans = [
      { banId: 100, type: 'global' as const },
      { banId: 9, type: 'global' as const },
    ];
    expect(toBanlistUserView({ uuid: 'u', reputation: 10, syncedAt: new Date('2026-01-01T00:00:00.000Z') }, bans)).toEqual({
      uuid: 'u',
      reputation: 10,
      global: 2,
      globalIds: [9, 100],
      local: 0,
      localIds: [],
      syncedAt: '2026-01-01T00:00:00.000Z',
    });
  });
});

describe(toBanView.name, () => {
  const ban: BanRow = {
    banId: 7,
    playerUuid: 'u',
    type: 'local',
    reason: 'r',
    server: null,
    bannedBy: 'Mod',
    lostRep: null,
    bannedAt: '2020-01-01 00:00:00.000',
    syncedAt: '2026-01-01 00:00:00.000',
    currentMcid: 'OurName',
    upstreamName: null,
  };

  it('prefers our current game id over the upstream name', () => {
    expect(toBanView({ ...ban, upstreamName: 'TheirName' }).mcid).toBe('OurName');
    expect(toBanView({ ...ban, currentMcid: null, upstreamName: 'TheirName' }).mcid).toBe('TheirName');
    expect(toBanView({ ...ban, currentMcid: null }).mcid).toBeNull();
  });

  it('writes the ban record fields', () => {
    expect(toBanView(ban)).toEqual({
      banId: 7,
      uuid: 'u',
      mcid: 'OurName',
      bannedBy: 'Mod',
      reason: 'r',
      server: null,
      type: 'local',
      lostRep: null,
      bannedAt: '2020-01-01T00:00:00.000Z',
      syncedAt: '2026-01-01T00:00:00.000Z',
    });
  });

  it('maps MySQL values (numbers from the driver, DATETIME as a Date)', () => {
    const view = toBanView({ ...ban, banId: 9007199254740991, lostRep: 2.5, bannedAt: new Date('2020-01-01T00:00:00.000Z'), syncedAt: new Date('2026-01-01T00:00:00.000Z') });
    expect(view).toMatchObject({ banId: 9007199254740991, lostRep: 2.5, bannedAt: '2020-01-01T00:00:00.000Z', syncedAt: '2026-01-01T00:00:00.000Z' });
  });
});
