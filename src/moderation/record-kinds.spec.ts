import { banTypeOf, isBanKind, punishmentKindOf, RECORD_KINDS, recordKindOfBan, recordKindOfPunishment } from '../evidence/record-ref';

describe('record kinds', () => {
  it('maps the mute both ways (chatban here, chatjail in the punishments feature) and every other punishment to itself', () => {
    expect((['jail', 'chatban', 'eban', 'vban'] as const).map(punishmentKindOf)).toEqual(['jail', 'chatjail', 'eban', 'vban']);
    expect((['jail', 'chatjail', 'eban', 'vban'] as const).map(recordKindOfPunishment)).toEqual(['jail', 'chatban', 'eban', 'vban']);
  });

  it('maps the ban list records to the ban types and back', () => {
    expect(RECORD_KINDS.filter(isBanKind)).toEqual(['gban', 'lban']);
    expect((['gban', 'lban'] as const).map(banTypeOf)).toEqual(['global', 'local']);
    expect((['global', 'local'] as const).map(recordKindOfBan)).toEqual(['gban', 'lban']);
  });
});
