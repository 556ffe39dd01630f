import { classifyPlayerIdentifier, normaliseUuid, positiveIntOf } from './identifiers';

describe(classifyPlayerIdentifier.name, () => {
  it.each([
    ['069A79F4-44E9-4726-A5BE-FCA90E38AAF5', { kind: 'uuid', value: '069a79f4-44e9-4726-a5be-fca90e38aaf5' }],
    ['123456789012345678', { kind: 'chatid', value: '123456789012345678' }],
    ['12345678901234567890', { kind: 'chatid', value: '12345678901234567890' }],
    ['1234567890123456', { kind: 'mcid', value: '1234567890123456' }],
    ['Notch', { kind: 'mcid', value: 'Notch' }],
    ['a_b', { kind: 'mcid', value: 'a_b' }],
  ])('reads %s', (raw, expected) => {
    expect(classifyPlayerIdentifier(raw)).toEqual(expected);
  });

  it.each(['', 'has space', 'x'.repeat(17), '123456789012345678901', 'dash-ed', '069a79f4-44e9-4726-a5be'])('rejects %j', (raw) => {
    expect(classifyPlayerIdentifier(raw)).toBeUndefined();
  });
});

describe(normaliseUuid.name, () => {
  it('hyphenates and lower-cases', () => {
    expect(normaliseUuid('069A79F444E94726A5BEFCA90E38AAF5')).toBe('069a79f4-44e9-4726-a5be-fca90e38aaf5');
    expect(normaliseUuid('069a79f4-44e9-4726-a5be-fca90e38aaf5')).toBe('069a79f4-44e9-4726-a5be-fca90e38aaf5');
  });

  it('rejects anything else', () => {
    expect(normaliseUuid('not-a-uuid')).toBeUndefined();
  });
});

describe(positiveIntOf.name, () => {
  it('reads a positive decimal integer within the safe integers, and nothing else', () => {
    expect(['1', '42', '9007199254740991'].map(positiveIntOf)).toEqual([1, 42, 9007199254740991]);
    expect(['0', '007', '-1', '+1', '1.0', '1e3', ' 1', '0x10', '', 'abc', '9007199254740992', '12345678901234567'].map(positiveIntOf)).toEqual(Array(12).fill(undefined));
  });
});
