import { banListTypeOf, isBanSiteKind, listLimit, punishmentKindOf } from './ban-kinds';

describe('bans site kinds', () => {
  it('names five kinds; jail is not one of them, and the mute is the punishments feature’s chatjail', () => {
    expect(['gban', 'lban', 'vban', 'eban', 'chatban', 'jail', 'chatjail', 'GBAN'].map(isBanSiteKind)).toEqual([true, true, true, true, true, false, false, false]);
    expect([punishmentKindOf('vban'), punishmentKindOf('eban'), punishmentKindOf('chatban')]).toEqual(['vban', 'eban', 'chatjail']);
    expect([banListTypeOf('gban'), banListTypeOf('lban')]).toEqual(['global', 'local']);
  });

  it('shows the 15 newest unless every item is asked for', () => {
    expect(listLimit({ allItems: false, activeOnly: true })).toBe(15);
    expect(listLimit({ allItems: true, activeOnly: false })).toBeNull();
  });
});
