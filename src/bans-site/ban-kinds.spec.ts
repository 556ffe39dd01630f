import { banListTypeOf, isBanSiteKind, listLimit, punishmentKindOf, recordIdOf } from './ban-kinds';

describe('bans site kinds', () => {
  it('names five kinds; jail is not one of them, and the mute is the punishments feature’s chatjail', () => {
    expect(['gban', 'lban', 'vban', 'eban', 'chatban', 'jail', 'chatjail', 'GBAN'].map(isBanSiteKind)).toEqual([true, true, true, true, true, false, false, false]);
    expect([punishmentKindOf('vban'), punishmentKindOf('eban'), punishmentKindOf('chatban')]).toEqual(['vban', 'eban', 'chatjail']);
    expect([banListTypeOf('gban'), banListTypeOf('lban')]).toEqual(['global', 'local']);
  });

  it('reads a record id only as a positive decimal integer within the safe integers', () => {
    expect(['1', '42', '9007199254740991'].map(recordIdOf)).toEqual([1, 42, 9007199254740991]);
    expect(['0', '007', '-1', '+1', '1.0', '1e3', ' 1', '0x10', '', 'abc', '9007199254740992', '12345678901234567'].map(recordIdOf)).toEqual(Array(12).fill(undefined));
  });

  it('shows the 15 newest unless every item is asked for', () => {
    expect(listLimit({ allItems: false, activeOnly: true })).toBe(15);
    expect(listLimit({ allItems: true, activeOnly: false })).toBeNull();
  });
});
