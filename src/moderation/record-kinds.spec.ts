import { banTypeOf, isBanKind, punishmentKindOf, RECORD_KINDS, recordKindOfBan, recordKindOfPunishment } from '../evidence/record-ref';
import { numericIdOf } from './record-id';

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

  it('reads an id as a positive integer, or as none', () => {
    expect(['1', '42', '9007199254740991'].map(numericIdOf)).toEqual([1, 42, 9007199254740991]);
    expect(['0', '-1', '01', 'abc', '1.5', '9007199254740993', ''].map(numericIdOf)).toEqual([null, null, null, null, null, null, null]);
  });
});
