import { cleanNickname } from './nickname';

describe(cleanNickname.name, () => {
  it.each([
    ['  Taro  ', 'Taro'],
    ['\u3000Taro\u3000', 'Taro'],
    ['\u200B\uFEFFTaro\u2060', 'Taro'],
    ['\r\nTaro\t', 'Taro'],
    ['Ta\u200Bro', 'Taro'],
    ['Big Taro', 'Big Taro'],
  ])('cleans %j to %j', (raw, expected) => {
    expect(cleanNickname(raw)).toEqual({ ok: true, nickname: expected });
  });

  it('keeps joiners that build emoji', () => {
    const family = '\u{1F468}\u200D\u{1F469}\u200D\u{1F467}';
    expect(cleanNickname(` ${family} `)).toEqual({ ok: true, nickname: family });
  });

  it.each(['', '   ', '\u3000', '\u200B', 'a\tb', 'a\u0000b', 'a\u007Fb', 'a'.repeat(33)])('rejects %j', (raw) => {
    expect(cleanNickname(raw).ok).toBe(false);
  });

  it('accepts exactly 32 characters, counting an emoji sequence as one', () => {
    expect(cleanNickname('a'.repeat(32)).ok).toBe(true);
    expect(cleanNickname(`${'\u{1F468}\u200D\u{1F469}'}${'a'.repeat(31)}`).ok).toBe(true);
  });
});
