import { countByKind, importedSourceId, isPunishmentKind, kindOfTable, labelOf } from './punishment-kinds';

describe('punishment kinds', () => {
  it('labels each kind as the players site shows it', () => {
    expect(['jail', 'chatjail', 'eban', 'vban'].map((kind) => (isPunishmentKind(kind) ? labelOf(kind) : null))).toEqual(['Jail', 'ChatJail', 'EBan', 'VBan']);
    expect(isPunishmentKind('chatban')).toBe(false);
    expect(isPunishmentKind('Jail')).toBe(false);
  });

  it('makes both mute tables one kind, with source ids that never collide', () => {
    expect(kindOfTable('chatban')).toBe('chatjail');
    expect(kindOfTable('chatjail')).toBe('chatjail');
    expect(kindOfTable('eban')).toBe('eban');
    expect(importedSourceId('chatban', '7')).not.toBe(importedSourceId('chatjail', '7'));
  });

  it('counts every kind, zero included', () => {
    expect(countByKind([])).toEqual({ jail: 0, chatjail: 0, eban: 0, vban: 0 });
    expect(countByKind(['jail', 'vban', 'jail'])).toEqual({ jail: 2, chatjail: 0, eban: 0, vban: 1 });
  });
});
