import { ConfigError, loadConfig } from './app-config';

describe(loadConfig.name, () => {
  it('applies the documented defaults', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      PORT: 3000,
      HOST: '0.0.0.0',
      DATABASE_URL: 'sqlite:./data/community.sqlite',
      CLUB_TOKEN_TTL_SECONDS: 10800,
      USER_KEY_TTL_SECONDS: 86400,
      CITY_BLOCK_LIMIT: 250000,
      CITY_BLOCK_MAX: 2500000,
      CITY_MAX_PER_OWNER: 3,
      RECAPTCHA_MIN_SCORE: 0.5,
      RECAPTCHA_TIMEOUT_MS: 5000,
      BANLIST_SYNC_CONCURRENCY: 4,
      BANLIST_TIMEOUT_MS: 10000,
      RATE_LIMIT_ENABLED: true,
    });
    expect(config.dataCutoff.toISOString()).toBe('2018-03-19T15:00:00.000Z');
  });

  it('converts numbers and booleans from strings', () => {
    const config = loadConfig({ PORT: '8080', RATE_LIMIT_ENABLED: 'false', RECAPTCHA_MIN_SCORE: '0.7' });
    expect(config.PORT).toBe(8080);
    expect(config.RATE_LIMIT_ENABLED).toBe(false);
    expect(config.RECAPTCHA_MIN_SCORE).toBe(0.7);
  });

  it.each([
    ['PORT', 'abc'],
    ['PORT', '70000'],
    ['DATABASE_URL', 'postgres://x'],
    ['CLUB_TOKEN_TTL_SECONDS', '0'],
    ['RECAPTCHA_MIN_SCORE', '2'],
    ['DATA_CUTOFF', 'yesterday'],
    ['BANLIST_SOURCE_URL', 'not a url'],
    ['LOG_LEVEL', 'loud'],
    ['RATE_LIMIT_ENABLED', 'maybe'],
  ])('stops with a message naming %s=%s', (name, value) => {
    expect(() => loadConfig({ [name]: value })).toThrow(new RegExp(name));
  });

  it('refuses production without a CAPTCHA secret', () => {
    expect(() => loadConfig({ NODE_ENV: 'production' })).toThrow(ConfigError);
    expect(() => loadConfig({ NODE_ENV: 'production' })).toThrow(/RECAPTCHA_SECRET/);
    expect(loadConfig({ NODE_ENV: 'production', RECAPTCHA_SECRET: 's' }).isProduction).toBe(true);
  });

  it('accepts the three database URL forms', () => {
    for (const url of ['sqlite:./x.sqlite', 'sqlite::memory:', 'mysql://u:p@127.0.0.1:3306/db']) {
      expect(loadConfig({ DATABASE_URL: url }).DATABASE_URL).toBe(url);
    }
  });
});
