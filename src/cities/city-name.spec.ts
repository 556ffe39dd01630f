import fc from 'fast-check';
import { checkCityName, checkCityNameKana, nameKey } from './city-name';

describe('nameKey', () => {
  it.each([
    ['Chuo', 'CHUO'],
    ['chuo', 'ChUo'],
    ['Ｃｈｕｏ', 'chuo'], // full-width letters
    ['  Chuo  ', 'chuo'],
    ['New　Town', 'new town'], // ideographic space
    ['New   Town', 'new town'],
    ['Straße', 'STRASSE'],
    ['STRAẞE', 'Straße'], // capital sharp s folds to ß, then to ss
    ['ｶﾀｶﾅ', 'カタカナ'], // half-width katakana
    ['㍻', '平成'],
  ])('treats %j and %j as the same name', (a, b) => {
    expect(nameKey(a)).toBe(nameKey(b));
  });

  it.each([
    ['Chuo', 'Chuo2'],
    ['ちゅうおう', 'チュウオウ'], // hiragana and katakana are different spellings
    ['New Town', 'NewTown'],
  ])('keeps %j and %j apart', (a, b) => {
    expect(nameKey(a)).not.toBe(nameKey(b));
  });

  it('is idempotent', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 20 }), (value) => {
        expect(nameKey(nameKey(value))).toBe(nameKey(value));
      }),
    );
  });

  it('ignores letter case for generated names', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[A-Za-z0-9 ]{1,20}$/), (value) => {
        expect(nameKey(value.toUpperCase())).toBe(nameKey(value.toLowerCase()));
      }),
    );
  });
});

describe('checkCityName', () => {
  it('trims and keeps the name as given', () => {
    expect(checkCityName('  Chuo City ')).toEqual({ ok: true, value: 'Chuo City', key: 'chuo city' });
  });

  it.each([
    ['blank', '   '],
    ['empty', ''],
    ['65 characters', 'a'.repeat(65)],
    ['a control character', 'Chuo\u0007'],
    ['a zero-width space', 'Ch\u200Buo'],
  ])('rejects %s', (_label, value) => {
    expect(checkCityName(value).ok).toBe(false);
  });

  it('accepts 64 characters', () => {
    expect(checkCityName('a'.repeat(64)).ok).toBe(true);
  });
});

describe('checkCityNameKana', () => {
  it.each(['ちゅうおう', 'チュウオウ', 'しん・ちゅうおう', 'ちゅーおー', 'ちゅう おう', 'ちゅう　おう', 'ｶﾀｶﾅ', 'ヴァ', 'がぎぐ'])('accepts %j', (value) => {
    expect(checkCityNameKana(value).ok).toBe(true);
  });

  it.each(['Chuo', '中央', 'ちゅう1', 'ちゅう!', '', '   ', 'ちゅう\u0007'])('rejects %j', (value) => {
    expect(checkCityNameKana(value).ok).toBe(false);
  });

  it('accepts any generated string of kana', () => {
    const kana = fc.constantFrom(...'あいうえおかきくけこがぎぐアイウエオヴァー・ ');
    fc.assert(
      fc.property(fc.array(kana, { minLength: 1, maxLength: 30 }), (chars) => {
        const value = chars.join('');
        expect(checkCityNameKana(value).ok).toBe(value.trim().length > 0);
      }),
    );
  });
});
