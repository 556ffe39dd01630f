import { AppConfig, ConfigError, loadConfig } from './app-config';
import { acceptedValues } from './config-problems';

describe(loadConfig.name, () => {
  it('applies the documented defaults', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      PORT: 3000,
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
      BANLIST_MAX_TIMEOUTS_IN_A_ROW: 5,
      RATE_LIMIT_ENABLED: true,
      REDIS_COMMAND_TIMEOUT_MS: 500,
      REDIS_CONNECT_TIMEOUT_MS: 1000,
      EVENTS_MAX_WAITERS: 1000,
      HTTP_REQUEST_TIMEOUT_MS: 30000,
      HTTP_IDLE_TIMEOUT_MS: 60000,
    });
    expect(config.dataCutoff.toISOString()).toBe('2018-03-19T15:00:00.000Z');
  });

  it('reads RANK_TITLE_WORDS: the original list by default, words with spaces allowed, no empty word', () => {
    const words = loadConfig({}).rankTitleWords;
    expect(words).toHaveLength(70);
    expect(words.slice(0, 3)).toEqual(['the New Generation', '- Super', 'Hyper']);
    expect(words[69]).toBe('Omnipotent');
    expect(loadConfig({ RANK_TITLE_WORDS: ' Big Star , Bright' }).rankTitleWords).toEqual(['Big Star', 'Bright']);
    for (const value of ['a,,b', 'a, ,b', ',a', '']) {
      expect(() => loadConfig({ RANK_TITLE_WORDS: value })).toThrow(/RANK_TITLE_WORDS/);
    }
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
    ['COMMUNITY_BANLIST_SERVER', 'https://play.example.net/'],
    ['COMMUNITY_BANLIST_SERVER', 'two words'],
    ['LOG_LEVEL', 'loud'],
    ['RATE_LIMIT_ENABLED', 'maybe'],
    ['BANLIST_MAX_TIMEOUTS_IN_A_ROW', '0'],
    ['REDIS_COMMAND_TIMEOUT_MS', '5'],
    ['EVENTS_MAX_WAITERS', '0'],
    ['HTTP_REQUEST_TIMEOUT_MS', 'soon'],
    // A long-poll answers a second before the idle cut: less than 2 s would leave it no wait at all.
    ['HTTP_IDLE_TIMEOUT_MS', '1500'],
    // A city's block count is stored in an integer column: no limit past what it holds.
    ['CITY_BLOCK_MAX', '2147483648'],
    ['CITY_BLOCK_LIMIT', '2147483648'],
  ])('stops with a message naming %s=%s', (name, value) => {
    expect(() => loadConfig({ [name]: value })).toThrow(new RegExp(name));
  });

  it.each([
    ['PORT', 'abc', 'PORT=abc is not a number: give a whole number from 1 to 65535'],
    ['PORT', '3000.5', 'PORT=3000.5 is not a whole number: give a whole number from 1 to 65535'],
    ['PORT', '1e3', 'PORT=1e3 is not a whole number: give a whole number from 1 to 65535'],
    ['PORT', '', 'PORT is empty: give a whole number from 1 to 65535, or leave it out for the default'],
    ['PORT', '  ', 'PORT is empty: give a whole number from 1 to 65535, or leave it out for the default'],
    ['PORT', '70000', 'PORT=70000 is out of range: give a whole number from 1 to 65535'],
    ['PORT', '0', 'PORT=0 is out of range: give a whole number from 1 to 65535'],
    ['CLUB_TOKEN_TTL_SECONDS', '0', 'CLUB_TOKEN_TTL_SECONDS=0 is out of range: give a whole number of at least 1'],
    ['RECAPTCHA_MIN_SCORE', '2', 'RECAPTCHA_MIN_SCORE=2 is out of range: give a number from 0 to 1'],
    ['RECAPTCHA_MIN_SCORE', 'high', 'RECAPTCHA_MIN_SCORE=high is not a number: give a number from 0 to 1'],
    ['LOG_LEVEL', 'loud', 'LOG_LEVEL=loud is not one of fatal, error, warn, info, debug, trace, silent'],
    ['NODE_ENV', '', 'NODE_ENV is empty: give one of development, production, test, or leave it out for the default'],
    ['RATE_LIMIT_ENABLED', 'maybe', 'RATE_LIMIT_ENABLED=maybe is not a yes/no value: give true or false (also 1/0, yes/no, on/off)'],
  ])('says what is wrong with %s=%j', (name, value, message) => {
    expect(() => loadConfig({ [name]: value })).toThrow(`Invalid configuration: ${message}`);
  });

  it('describes every numeric, yes/no and enumerated variable from its decorators, none left to a generic message', () => {
    const accepts = acceptedValues(AppConfig);
    const defaults = new AppConfig() as unknown as Record<string, unknown>;
    for (const [name, value] of Object.entries(defaults)) {
      const kind = typeof value === 'number' ? (Number.isInteger(value) ? ['integer', 'number'] : ['number']) : typeof value === 'boolean' ? ['boolean'] : undefined;
      if (kind !== undefined) {
        expect({ name, kinds: kind }).toEqual({ name, kinds: expect.arrayContaining([accepts.get(name)?.kind]) as unknown });
        expect(() => loadConfig({ [name]: 'x' })).toThrow(new RegExp(`${name}=x is not (a number|a yes/no value)`));
      }
    }
    for (const name of ['NODE_ENV', 'LOG_LEVEL']) {
      expect(() => loadConfig({ [name]: 'x' })).toThrow(`${name}=x is not one of`);
    }
  });

  it('never echoes a value that may be a secret or hold a password', () => {
    expect(() => loadConfig({ DATABASE_URL: 'postgres://user:hunter2@db/x' })).toThrow(/^(?!.*hunter2)/s);
    expect(() => loadConfig({ METRICS_TOKEN: 'short-secret' })).toThrow(/^(?!.*short-secret)/s);
  });

  it('listens on loopback when HOST is unset, CAPTCHA is off and NODE_ENV is not production; HOST always wins', () => {
    expect(loadConfig({})).toMatchObject({ listenHost: '127.0.0.1', loopbackByDefault: true });
    expect(loadConfig({ HOST: '' })).toMatchObject({ listenHost: '127.0.0.1', loopbackByDefault: true });
    expect(loadConfig({ RECAPTCHA_SECRET: 's' })).toMatchObject({ listenHost: '0.0.0.0', loopbackByDefault: false });
    expect(loadConfig({ NODE_ENV: 'production', RECAPTCHA_SECRET: 's' })).toMatchObject({ listenHost: '0.0.0.0', loopbackByDefault: false });
    expect(loadConfig({ HOST: '0.0.0.0' })).toMatchObject({ listenHost: '0.0.0.0', loopbackByDefault: false });
    expect(loadConfig({ HOST: '::', RECAPTCHA_SECRET: 's' }).listenHost).toBe('::');
  });

  it('has the documented database deadlines and bounds, and refuses values that make no sense', () => {
    expect(loadConfig({})).toMatchObject({
      DATABASE_QUERY_TIMEOUT_MS: 5000,
      DATABASE_POOL_WAIT_MS: 2000,
      DATABASE_POOL_QUEUE_LIMIT: 200,
      DATABASE_LOCK_WAIT_SECONDS: 3,
      DATABASE_PING_TIMEOUT_MS: 2000,
      SQLITE_WRITE_QUEUE_LIMIT: 500,
      PASSWORD_HASH_QUEUE_LIMIT: 64,
    });
    expect(loadConfig({ DATABASE_QUERY_TIMEOUT_MS: '1500', DATABASE_LOCK_WAIT_SECONDS: '1' }).DATABASE_QUERY_TIMEOUT_MS).toBe(1500);
    for (const [name, value] of [
      ['DATABASE_QUERY_TIMEOUT_MS', '0'],
      ['DATABASE_POOL_WAIT_MS', 'soon'],
      ['DATABASE_POOL_QUEUE_LIMIT', '0'],
      ['DATABASE_PING_TIMEOUT_MS', '-1'],
      ['SQLITE_WRITE_QUEUE_LIMIT', '0'],
      ['PASSWORD_HASH_QUEUE_LIMIT', '1.5'],
    ]) {
      expect(() => loadConfig({ [name]: value })).toThrow(new RegExp(name));
    }
    // A lock wait at or past the statement deadline would never be reached.
    expect(() => loadConfig({ DATABASE_LOCK_WAIT_SECONDS: '5' })).toThrow(/DATABASE_LOCK_WAIT_SECONDS/);
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

  describe('TRUST_PROXY', () => {
    it.each([undefined, '', 'false', '0'])('is off for %p', (value) => {
      expect(loadConfig(value === undefined ? {} : { TRUST_PROXY: value }).trustProxy).toBe(false);
    });

    it('takes a hop count or a list of addresses and CIDRs', () => {
      expect(loadConfig({ TRUST_PROXY: '2' }).trustProxy).toBe(2);
      expect(loadConfig({ TRUST_PROXY: '10.0.0.0/8, 127.0.0.1,::1, fd00::/8' }).trustProxy).toEqual(['10.0.0.0/8', '127.0.0.1', '::1', 'fd00::/8']);
    });

    it.each(['true', 'TRUE', 'yes', 'on', 'loopback', '10.0.0.0/33', '300.1.1.1', '10.0.0.1,', '-1', '1.5'])('refuses %p, naming the variable', (value) => {
      expect(() => loadConfig({ TRUST_PROXY: value })).toThrow(ConfigError);
      expect(() => loadConfig({ TRUST_PROXY: value })).toThrow(/TRUST_PROXY/);
    });
  });

  it.each(['a b c d e f', '61 * * * *', '0 0 */6 * * * *', 'every hour'])('refuses BANLIST_SYNC_CRON=%p, naming the variable', (value) => {
    expect(() => loadConfig({ BANLIST_SYNC_CRON: value })).toThrow(/BANLIST_SYNC_CRON/);
  });

  it('reads the CAPTCHA hostname and action lists (unset: not checked)', () => {
    expect(loadConfig({}).recaptchaHostnames).toBeUndefined();
    expect(loadConfig({ RECAPTCHA_ACTIONS: ' ' }).recaptchaActions).toBeUndefined();
    const config = loadConfig({ RECAPTCHA_HOSTNAMES: 'Club.Example.org, www.example.org', RECAPTCHA_ACTIONS: 'login,register' });
    expect(config.recaptchaHostnames).toEqual(['club.example.org', 'www.example.org']);
    expect(config.recaptchaActions).toEqual(['login', 'register']);
  });
  describe('web map settings (docs/web-map.md)', () => {
    it('has defaults that start the service', () => {
      expect(loadConfig({})).toMatchObject({ WEB_MAP_LABEL: 'Cities', WEB_MAP_FILL_COLOR: '2f80ed4d', WEB_MAP_LINE_COLOR: '1b4f9c', WEB_MAP_MARKER_HEIGHT: 64, WEB_MAP_BLUEMAP_MAP_ID: 'world' });
      expect(loadConfig({}).WEB_MAP_CITY_URL).toBeUndefined();
      expect(loadConfig({ WEB_MAP_CITY_URL: ' ' }).WEB_MAP_CITY_URL).toBeUndefined();
    });

    it.each([
      ['WEB_MAP_FILL_COLOR', 'blue'],
      ['WEB_MAP_FILL_COLOR', '#12345'],
      ['WEB_MAP_LINE_COLOR', '#1b4f9c0'],
      ['WEB_MAP_MARKER_HEIGHT', '64.5'],
      ['WEB_MAP_MARKER_HEIGHT', '5000'],
      ['WEB_MAP_BLUEMAP_MAP_ID', 'world"; alert(1)'],
      ['WEB_MAP_BLUEMAP_MAP_ID', ''],
      ['WEB_MAP_CITY_URL', 'javascript:alert(1)'],
      ['WEB_MAP_CITY_URL', 'https://x/{id}" onmouseover="y'],
      ['WEB_MAP_LABEL', '<b>Cities</b>'],
    ])('refuses %s=%p, naming the variable', (name, value) => {
      expect(() => loadConfig({ [name]: value })).toThrow(ConfigError);
      expect(() => loadConfig({ [name]: value })).toThrow(new RegExp(name));
    });
  });
});
