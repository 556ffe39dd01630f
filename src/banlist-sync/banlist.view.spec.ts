import type { BanlistBan } from './banlist-ban.entity';
import type { BanlistPlayer } from './banlist-player.entity';
import { toBanView, toBanlistUserView } from './banlist.view';

const syncedAt = new Date('2026-01-01T00:00:00.000Z');

describe(toBanlistUserView.name, () => {
  it('counts and sorts the ids per type', () => {
    const player: BanlistPlayer = { uuid: 'u', upstreamName: 'n', reputation: 6.5, syncedAt };
    const bans = [
      { banId: 30, type: 'global' as const },
      { banId: 5, type: 'local' as const },
      { banId: 10, type: 'global' as const },
    ];
    expect(toBanlistUserView(player, bans)).toEqual({
      uuid: 'u',
      reputation: 6.5,
      global: 2,
      globalIds: [10, 30],
      local: 1,
      localIds: [5],
      syncedAt: '2026-01-01T00:00:00.000Z',
    });
  });
});

describe(toBanView.name, () => {
  const ban: BanlistBan = {
    banId: 7,
    playerUuid: 'u',
    type: 'local',
    reason: 'r',
    server: null,
    bannedBy: 'Mod',
    lostRep: null,
    bannedAt: new Date('2020-01-01T00:00:00.000Z'),
    syncedAt,
  };

  it('prefers our current game id over the upstream name', () => {
    expect(toBanView(ban, 'OurName', 'TheirName').mcid).toBe('OurName');
    expect(toBanView(ban, null, 'TheirName').mcid).toBe('TheirName');
  });

  it('writes the ban record fields', () => {
    expect(toBanView(ban, 'OurName', null)).toEqual({
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
});
