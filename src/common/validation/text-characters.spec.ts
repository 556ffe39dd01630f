import fc from 'fast-check';
import { findForbiddenText, hasForbiddenCharacter } from './text-characters';

describe(hasForbiddenCharacter.name, () => {
  it.each([
    ['a lone high surrogate', 'ab\uD800c'],
    ['a lone low surrogate', '\uDC00'],
    ['a high surrogate at the end', 'x\uD83D'],
    ['U+FFFE', 'Chuo\uFFFE'],
    ['U+FFFF', '\uFFFF'],
    ['U+FDD0', '\uFDD0'],
    ['U+FDEF', 'a\uFDEFb'],
    ['U+1FFFE', '\u{1FFFE}'],
    ['U+10FFFF', '\u{10FFFF}'],
  ])('refuses %s', (_label, text) => {
    expect(hasForbiddenCharacter(text)).toBe(true);
  });

  it.each([
    ['plain text', 'Chuo 中央区'],
    ['an emoji (a surrogate pair)', '😀 city'],
    ['U+FFFD', '\uFFFD'],
    ['U+FDCF and U+FDF0', '\uFDCF\uFDF0'],
    ['U+FFFC', '\uFFFC'],
    ['private use', '\uE000\u{F0000}'],
    ['empty', ''],
  ])('accepts %s', (_label, text) => {
    expect(hasForbiddenCharacter(text)).toBe(false);
  });

  it('agrees with the definition for any UTF-16 string', () => {
    const noncharacter = (code: number): boolean => (code >= 0xfdd0 && code <= 0xfdef) || (code & 0xfffe) === 0xfffe;
    fc.assert(
      fc.property(fc.string({ unit: fc.integer({ min: 0, max: 0xffff }).map((code) => String.fromCharCode(code)), maxLength: 16 }), fc.string({ unit: 'binary', maxLength: 8 }), (units, text) => {
        for (const sample of [units, text, units + text]) {
          const expected = Buffer.from(sample, 'utf8').toString('utf8') !== sample || [...sample].some((char) => noncharacter(char.codePointAt(0) ?? 0));
          expect(hasForbiddenCharacter(sample)).toBe(expected);
        }
      }),
      { numRuns: 300 },
    );
  });
});

describe(findForbiddenText.name, () => {
  it('names the first parameter carrying one, through arrays and objects', () => {
    expect(findForbiddenText({ cityName: 'ok', reason: 'x\uFFFF' })).toBe('reason');
    expect(findForbiddenText({ achievements: [{ title: 'ok' }, { title: 'ok', description: '\uD800' }] })).toBe('achievements.1.description');
    expect(findForbiddenText({ corners: [{ x: 1, z: 2 }], active: true, nothing: null })).toBeUndefined();
    expect(findForbiddenText('\uFFFE')).toBe('');
  });
});
