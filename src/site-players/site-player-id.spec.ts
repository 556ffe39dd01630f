import { sitePlayerId } from './site-player-id';

describe(sitePlayerId.name, () => {
  it('reads a uuid with or without hyphens, always hyphenated and lower case', () => {
    expect(sitePlayerId('069A79F4-44E9-4726-A5BE-FCA90E38AAF5')).toEqual({ kind: 'uuid', value: '069a79f4-44e9-4726-a5be-fca90e38aaf5' });
    expect(sitePlayerId('069a79f444e94726a5befca90e38aaf5')).toEqual({ kind: 'uuid', value: '069a79f4-44e9-4726-a5be-fca90e38aaf5' });
  });

  it('reads 17-20 digits as a chat id and anything else of game-id characters as a game id, lower-cased', () => {
    expect(sitePlayerId('123456789012345678')).toEqual({ kind: 'chatid', value: '123456789012345678' });
    expect(sitePlayerId('Notch')).toEqual({ kind: 'mcid', value: 'notch' });
    expect(sitePlayerId('recentLogin')).toEqual({ kind: 'mcid', value: 'recentlogin' });
    expect(sitePlayerId('1234567890123456')).toEqual({ kind: 'mcid', value: '1234567890123456' });
  });

  it('refuses what is none of them, hyphens in odd places included', () => {
    for (const raw of ['', 'a b', '<script>', 'x'.repeat(17), '069a79f4-44e94726-a5be-fca90e38aaf5', '069a79f4-44e9-4726-a5be-fca90e38aaf5-', '069a79f444e9-4726-a5be-fca90e38aaf5-']) {
      expect(sitePlayerId(raw)).toBeUndefined();
    }
  });
});
