import { plainToInstance, Transform } from 'class-transformer';
import {
  IsBoolean,
  IsIn,
  IsInt,
  IsNumber,
  IsOptional,
  IsString,
  IsUrl,
  Matches,
  Max,
  Min,
  MinLength,
  validateSync,
} from 'class-validator';
import { validateCronExpression } from 'cron';
import { parseTrustProxy, type TrustProxySetting } from './trust-proxy';
import { INT_COLUMN_MAX } from '../common/validation/column-range';
import { acceptedValues, describeProblem } from './config-problems';
import { CITY_URL_TEMPLATE_PATTERN, HEX_COLOR_PATTERN } from './web-map-patterns';

const toInt = ({ value }: { value: unknown }): unknown =>
  typeof value === 'string' && /^-?\d+$/.test(value.trim()) ? Number(value) : value;
const toNumber = ({ value }: { value: unknown }): unknown =>
  typeof value === 'string' && value.trim() !== '' && !Number.isNaN(Number(value)) ? Number(value) : value;
const toBoolean = ({ value }: { value: unknown }): unknown => {
  if (typeof value !== 'string') {
    return value;
  }
  const normalised = value.trim().toLowerCase();
  if (['true', '1', 'yes', 'on'].includes(normalised)) {
    return true;
  }
  if (['false', '0', 'no', 'off'].includes(normalised)) {
    return false;
  }
  return value;
};
const emptyToUndefined = ({ value }: { value: unknown }): unknown =>
  typeof value === 'string' && value.trim() === '' ? undefined : value;

/** The original game plugin's join-message title words, in its order (public in its source: data, not code). */
const DEFAULT_RANK_TITLE_WORDS: readonly string[] = [
  'the New Generation', '- Super', 'Hyper', 'Ultra', 'Extreme', 'Insane', 'Gigantic', 'Epic', 'Amazing', 'Beautiful',
  'Special', 'Swag', 'Lunatic', 'Exotic', 'God', 'Hell', 'Heaven', 'Mega', 'Giga', 'Tera', 'Refined', 'Sharp',
  'Strong', 'Muscle', 'Macho', 'Bomber', 'Blazing', 'Frozen', 'Legendary', 'Mystical', 'Tactical', 'Critical',
  'Overload', 'Overclock', 'Fantastic', 'Criminal', 'Primordial', 'Genius', 'Great', 'Perfect', 'Fearless',
  'Ruthless', 'Bold', 'Void', 'Millenium', 'Exact', 'Really', 'Certainty', 'Infernal', 'Ender', 'World', 'Mad',
  'Crazy', 'Wrecked', 'Elegant', 'Expensive', 'Rich', 'Radioactive', 'Automatic', 'Honest', 'Cosmic', 'Galactic',
  'Dimensional', 'Sinister', 'Evil', 'Abyssal', 'Hallowed', 'Holy', 'Sacred', 'Omnipotent',
];

/**
 * Every environment variable the service reads, with its default. Validated once at start;
 * an invalid value stops the start with a message naming the variable.
 */
export class AppConfig {
  // 0 (a port the system picks) is refused: nobody could find the server.
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(65535)
  PORT = 3000;

  /**
   * The listening address; unset, see `listenHost` (loopback for a start without CAPTCHA outside
   * production, every interface otherwise).
   */
  @Transform(emptyToUndefined)
  @IsOptional()
  @IsString()
  HOST?: string;

  @Matches(/^(sqlite:.+|mysql:\/\/.+|mariadb:\/\/.+)$/, {
    message: 'DATABASE_URL must be sqlite:<path>, sqlite::memory: or mysql://user:pass@host:port/db',
  })
  DATABASE_URL = 'sqlite:./data/community.sqlite';

  @Transform(toBoolean)
  @IsBoolean()
  DATABASE_MIGRATIONS_RUN = true;

  @IsIn(['development', 'production', 'test'])
  NODE_ENV: 'development' | 'production' | 'test' = 'development';

  @IsIn(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])
  LOG_LEVEL: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent' = 'info';

  @Transform(emptyToUndefined)
  @IsOptional()
  @IsString()
  APP_VERSION?: string;

  @Transform(emptyToUndefined)
  @IsOptional()
  @IsString()
  RECAPTCHA_SECRET?: string;

  /** The CAPTCHA widget's public site key for the console (docs/console-and-maps.md, Signing in to the console); unset: no widget. */
  @Transform(emptyToUndefined)
  @IsOptional()
  @IsString()
  RECAPTCHA_SITE_KEY?: string;

  /** Comma list of hostnames the CAPTCHA answer must name (`hostname`); unset: not checked. */
  @Transform(emptyToUndefined)
  @IsOptional()
  @IsString()
  RECAPTCHA_HOSTNAMES?: string;

  /** Comma list of actions the CAPTCHA answer may name (`action`); unset: not checked. */
  @Transform(emptyToUndefined)
  @IsOptional()
  @IsString()
  RECAPTCHA_ACTIONS?: string;

  @IsUrl({ require_tld: false, protocols: ['http', 'https'] })
  RECAPTCHA_VERIFY_URL = 'https://www.google.com/recaptcha/api/siteverify';

  @Transform(toNumber)
  @IsNumber()
  @Min(0)
  @Max(1)
  RECAPTCHA_MIN_SCORE = 0.5;

  @Transform(toInt)
  @IsInt()
  @Min(1)
  RECAPTCHA_TIMEOUT_MS = 5000;

  @Transform(toInt)
  @IsInt()
  @Min(1)
  CLUB_TOKEN_TTL_SECONDS = 10800;

  @Transform(toInt)
  @IsInt()
  @Min(1)
  USER_KEY_TTL_SECONDS = 86400;

  @Transform(toInt)
  @IsInt()
  @Min(1)
  // A city's block count is stored in an integer column (src/common/validation/column-range.ts).
  @Max(INT_COLUMN_MAX)
  CITY_BLOCK_LIMIT = 250000;

  @Transform(toInt)
  @IsInt()
  @Min(1)
  // A city's block count is stored in an integer column (src/common/validation/column-range.ts).
  @Max(INT_COLUMN_MAX)
  CITY_BLOCK_MAX = 2500000;

  @Transform(toInt)
  @IsInt()
  @Min(1)
  CITY_MAX_PER_OWNER = 3;

  @Matches(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/, {
    message: 'DATA_CUTOFF must be an ISO 8601 timestamp with a time zone',
  })
  DATA_CUTOFF = '2018-03-20T00:00:00+09:00';

  @Transform(emptyToUndefined)
  @IsOptional()
  @IsUrl({ require_tld: false, protocols: ['http', 'https'] })
  BANLIST_SOURCE_URL?: string;

  /**
   * The server address (as the ban-list service reports a ban's server, any case) of the
   * community's own server: the sync keeps the bans issued there as the community's own records
   * (docs/bans-site.md). Unset: no new records come from the sync.
   */
  @Transform(emptyToUndefined)
  @IsOptional()
  @Matches(/^[A-Za-z0-9](?:[A-Za-z0-9.-]{0,251}[A-Za-z0-9])?(?::\d{1,5})?$/, { message: 'COMMUNITY_BANLIST_SERVER must be a server address such as play.example.net or play.example.net:25565' })
  COMMUNITY_BANLIST_SERVER?: string;

  /** The community's time zone (IANA name): the players site's wall-clock times, days and "how long ago". */
  @IsString()
  @Matches(/^[A-Za-z0-9_+\-/]+$/, { message: 'COMMUNITY_TIME_ZONE must be an IANA time zone name such as Asia/Tokyo' })
  COMMUNITY_TIME_ZONE = 'Asia/Tokyo';

  /**
   * The community's eras of play, oldest first: `key` or `key=start..end` (ISO 8601 with a zone,
   * either side may be empty), comma-separated. Play counts in the era whose span holds it, and in
   * the last era when none does (docs/players-site.md, "Eras").
   */
  @IsString()
  @Matches(/^\s*[a-z0-9_]{1,32}(=[^,]*)?(\s*,\s*[a-z0-9_]{1,32}(=[^,]*)?)*\s*$/, {
    message: 'PLAYER_ERAS must be comma-separated era keys (a-z, 0-9, _), each optionally =start..end',
  })
  PLAYER_ERAS = 'kassi,jao1,jao2,jao3,jao4';

  /** The two vote sites, comma-separated: the first feeds the join-message title (rankText), the second the chat-colour rank. */
  @IsString()
  @Matches(/^\s*[a-z0-9.-]{1,64}\s*,\s*[a-z0-9.-]{1,64}\s*$/, { message: 'VOTE_SITES must be two site names (a-z, 0-9, ., -) separated by a comma' })
  VOTE_SITES = 'minecraft.jp,monocraft.net';

  /**
   * The join-message title words of the vote rewards (rankText), in order, comma-separated; a word
   * may hold spaces. The default is the original game plugin's list (docs/game-server.md, "Votes").
   */
  @IsString()
  @Matches(/^[^,]*[^,\s][^,]*(,[^,]*[^,\s][^,]*)*$/, { message: 'RANK_TITLE_WORDS must be comma-separated words, none of them empty' })
  RANK_TITLE_WORDS = DEFAULT_RANK_TITLE_WORDS.join(',');

  @IsString()
  @Matches(/^(\S+\s+){4,5}\S+$/, { message: 'BANLIST_SYNC_CRON must be a cron expression of 5 or 6 fields' })
  BANLIST_SYNC_CRON = '0 0 */6 * * *';

  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(64)
  BANLIST_SYNC_CONCURRENCY = 4;

  @Transform(toInt)
  @IsInt()
  @Min(1)
  BANLIST_TIMEOUT_MS = 10000;

  // The database's deadlines and bounds (docs/reliability.md, "The database"); tests shrink them.
  /** MySQL: one statement's deadline; past it the connection is dropped and the request answers 503. */
  @Transform(toInt)
  @IsInt()
  @Min(100)
  @Max(600_000)
  DATABASE_QUERY_TIMEOUT_MS = 5000;

  /** MySQL: how long a request waits for a pooled connection (connecting included) before a 503. */
  @Transform(toInt)
  @IsInt()
  @Min(50)
  @Max(60_000)
  DATABASE_POOL_WAIT_MS = 2000;

  /** MySQL: requests allowed to wait for a pooled connection; one more gets a 503 at once. */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(100_000)
  DATABASE_POOL_QUEUE_LIMIT = 200;

  /** MySQL: InnoDB row-lock wait of every session (`innodb_lock_wait_timeout`, whole seconds). */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(3600)
  DATABASE_LOCK_WAIT_SECONDS = 3;

  /** `/health/ready`: the ping's deadline, pool wait included. */
  @Transform(toInt)
  @IsInt()
  @Min(50)
  @Max(60_000)
  DATABASE_PING_TIMEOUT_MS = 2000;

  /** SQLite: write transactions allowed to wait for the one writer; one more gets a 503 at once. */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(100_000)
  SQLITE_WRITE_QUEUE_LIMIT = 500;

  /** Password hashes (argon2) allowed to wait for a free hashing slot; one more gets a 503 at once. */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(10_000)
  PASSWORD_HASH_QUEUE_LIMIT = 64;

  /**
   * Places in the password hashing queue one account's credential checks may hold at once (a
   * sign-in holds one from its start to the end of its hash); one more gets 429 with Retry-After
   * while other callers still get in. With RATE_LIMIT_ENABLED only.
   */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(10_000)
  PASSWORD_HASH_PLACES_PER_ACCOUNT = 2;

  /** The same for one client address (a few people behind one shared address sign in at once). */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(10_000)
  PASSWORD_HASH_PLACES_PER_ADDRESS = 8;

  /**
   * Correct-password checks (sign-ins, password changes, deletions) one account may pass in an
   * hour, from any address: a person signs in a few times an hour. With RATE_LIMIT_ENABLED only.
   */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(1_000_000)
  SIGN_INS_PER_ACCOUNT_PER_HOUR = 20;

  /**
   * The ban-list run's circuit breaker (docs/reliability.md): this many upstream timeouts in a
   * row stop the run; the players not yet fetched keep their data and count as failed.
   */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(10_000)
  BANLIST_MAX_TIMEOUTS_IN_A_ROW = 5;

  @Transform(toBoolean)
  @IsBoolean()
  RATE_LIMIT_ENABLED = true;

  /**
   * Tests only: multiplies the sign-in limits' windows and refusal times (SECURITY.md) so that
   * expiry can be tested in seconds. Must be 1 with NODE_ENV=production.
   */
  @Transform(toNumber)
  @IsNumber()
  @Min(0.0001)
  @Max(1)
  RATE_LIMIT_TIME_SCALE = 1;

  @Transform(emptyToUndefined)
  @IsOptional()
  @IsString()
  CORS_ORIGINS?: string;

  @Transform(emptyToUndefined)
  @IsOptional()
  @IsString()
  TRUST_PROXY?: string;

  @Transform(emptyToUndefined)
  @IsOptional()
  @Matches(/^rediss?:\/\/.+/, { message: 'REDIS_URL must be redis://host:port' })
  REDIS_URL?: string;

  /** Every Redis command (rate limits, known addresses, event notifications) answers or fails within this. */
  @Transform(toInt)
  @IsInt()
  @Min(10)
  @Max(60_000)
  REDIS_COMMAND_TIMEOUT_MS = 500;

  /** A Redis connection that is not up within this counts as down (the limiters use memory meanwhile). */
  @Transform(toInt)
  @IsInt()
  @Min(10)
  @Max(60_000)
  REDIS_CONNECT_TIMEOUT_MS = 1000;

  /** Long-polls (`GET /events?wait=`) waiting at once on this instance; past it: 503 with Retry-After. */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(100_000)
  EVENTS_MAX_WAITERS = 1000;

  /**
   * Long-polls one API key may have waiting at once on this instance; past it: 429 with
   * Retry-After, so one consumer cannot hold every place (several game servers: one key each).
   */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(100_000)
  EVENTS_MAX_WAITERS_PER_KEY = 100;

  /** The same for one client address. */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(100_000)
  EVENTS_MAX_WAITERS_PER_ADDRESS = 100;

  /** The whole request (headers and body) must arrive within this (a client that trickles it is cut off with 408). */
  @Transform(toInt)
  @IsInt()
  @Min(100)
  @Max(600_000)
  HTTP_REQUEST_TIMEOUT_MS = 30_000;

  /**
   * A connection on which nothing moves for this long is closed (also while a handler runs).
   * A long-poll waits at most this less one second, so it answers before the cut.
   */
  @Transform(toInt)
  @IsInt()
  @Min(2000)
  @Max(3_600_000)
  HTTP_IDLE_TIMEOUT_MS = 60_000;

  /** Unset: `/metrics` answers loopback clients only; set: it needs `Authorization: Bearer <token>`. */
  @Transform(emptyToUndefined)
  @IsOptional()
  @IsString()
  @MinLength(16, { message: 'METRICS_TOKEN must be at least 16 characters' })
  METRICS_TOKEN?: string;

  // Webhooks (docs/events-and-webhooks.md, Delivery): private targets, retry schedule, and the per-attempt timeout (tests shrink it).
  @Transform(toBoolean)
  @IsBoolean()
  WEBHOOK_ALLOW_PRIVATE = false;

  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(3_600_000)
  WEBHOOK_RETRY_BASE_MS = 1000;

  @Transform(toInt)
  @IsInt()
  @Min(1)
  WEBHOOK_RETRY_WINDOW_SECONDS = 86400;

  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(60_000)
  WEBHOOK_TIMEOUT_MS = 10000;

  // Console sessions (docs/console-and-maps.md, Signing in to the console): the cookie ends after
  // this long without a request, and this long after sign-in at most (tests shrink both).
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(86_400)
  CONSOLE_SESSION_IDLE_SECONDS = 1800;

  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(7 * 86_400)
  CONSOLE_SESSION_MAX_SECONDS = 43200;

  // Cities on the game server's web map (docs/web-map.md): the marker set's name, its colours,
  // the height BlueMap draws it at, the BlueMap map it belongs to, and the link in each popup.
  @IsString()
  @MinLength(1)
  @Matches(/^[^<>&"]{1,64}$/, { message: 'WEB_MAP_LABEL must be 1 to 64 characters without < > & "' })
  WEB_MAP_LABEL = 'Cities';

  // Colours as rrggbb[aa], `#` optional (an unquoted `#` starts a comment in a .env file).
  @Matches(HEX_COLOR_PATTERN, { message: 'WEB_MAP_FILL_COLOR must be rrggbb or rrggbbaa (hex, # optional)' })
  WEB_MAP_FILL_COLOR = '2f80ed4d';

  @Matches(HEX_COLOR_PATTERN, { message: 'WEB_MAP_LINE_COLOR must be rrggbb or rrggbbaa (hex, # optional)' })
  WEB_MAP_LINE_COLOR = '1b4f9c';

  /** The y BlueMap draws the outlines at (a world's build range lies within -2032..2031). */
  @Transform(toInt)
  @IsInt()
  @Min(-2048)
  @Max(2048)
  WEB_MAP_MARKER_HEIGHT = 64;

  /** The BlueMap map (its `maps/<id>.conf` name) the cities belong to; other maps show none. */
  @Matches(/^[A-Za-z0-9_.-]{1,64}$/, { message: 'WEB_MAP_BLUEMAP_MAP_ID must be a BlueMap map id such as world (letters, digits, _ . -)' })
  WEB_MAP_BLUEMAP_MAP_ID = 'world';

  /** A city's page, `{id}` and `{name}` replaced; unset: the popups carry no link. */
  @Transform(emptyToUndefined)
  @IsOptional()
  @Matches(CITY_URL_TEMPLATE_PATTERN, { message: 'WEB_MAP_CITY_URL must be an http(s) address such as https://club.example.org/cities/{id} (no spaces, quotes or < >)' })
  WEB_MAP_CITY_URL?: string;

  /** TRUST_PROXY as Fastify takes it (validated by loadConfig). */
  get trustProxy(): TrustProxySetting {
    const parsed = parseTrustProxy(this.TRUST_PROXY);
    return typeof parsed === 'object' && !Array.isArray(parsed) ? false : parsed;
  }

  get recaptchaHostnames(): string[] | undefined {
    return commaList(this.RECAPTCHA_HOSTNAMES, (item) => item.toLowerCase());
  }

  get recaptchaActions(): string[] | undefined {
    return commaList(this.RECAPTCHA_ACTIONS, (item) => item);
  }

  /** DATA_CUTOFF as a Date (parsed once: every player lookup reads it). */
  get dataCutoff(): Date {
    if (this.parsedCutoff?.text !== this.DATA_CUTOFF) {
      this.parsedCutoff = { text: this.DATA_CUTOFF, time: new Date(this.DATA_CUTOFF).getTime() };
    }
    return new Date(this.parsedCutoff.time);
  }

  private parsedCutoff: { text: string; time: number } | undefined;

  /** PLAYER_ERAS, parsed (validated by loadConfig); shared, not to be mutated. */
  get eras(): readonly Era[] {
    return parsedOnce(this, 'PLAYER_ERAS', parseEras);
  }

  /** VOTE_SITES as [first, second]; shared, not to be mutated. */
  get voteSites(): readonly [string, string] {
    return parsedOnce(this, 'VOTE_SITES', (raw) => {
      const [first, second] = raw.split(',').map((site) => site.trim().toLowerCase());
      return [first, second] as const;
    });
  }

  /** RANK_TITLE_WORDS as a list (each word trimmed); shared, not to be mutated. */
  get rankTitleWords(): readonly string[] {
    return parsedOnce(this, 'RANK_TITLE_WORDS', (raw) => raw.split(',').map((word) => word.trim()));
  }

  /**
   * Where the server listens: HOST when set; else every interface (0.0.0.0) in production or with
   * CAPTCHA on, and loopback (127.0.0.1) for a start without CAPTCHA outside production, so that a
   * first `npm start` on a laptop does not offer sign-ups without a CAPTCHA to its whole network
   * (docs/operations.md, Configuration). The container sets NODE_ENV=production: unaffected.
   */
  get listenHost(): string {
    if (this.HOST !== undefined) {
      return this.HOST;
    }
    return this.isProduction || this.RECAPTCHA_SECRET ? '0.0.0.0' : '127.0.0.1';
  }

  /** True when the server listens on loopback only because HOST was left unset. */
  get loopbackByDefault(): boolean {
    return this.HOST === undefined && this.listenHost === '127.0.0.1';
  }

  get isProduction(): boolean {
    return this.NODE_ENV === 'production';
  }
}

function commaList(value: string | undefined, normalise: (item: string) => string): string[] | undefined {
  const items = (value ?? '').split(',').map((item) => normalise(item.trim())).filter((item) => item !== '');
  return items.length > 0 ? items : undefined;
}

export class ConfigError extends Error {}

/** An era of the community: play between `start` (inclusive) and `end` (exclusive); null is open. */
export interface Era {
  key: string;
  start: Date | null;
  end: Date | null;
}

export function parseEras(text: string): Era[] {
  return text.split(',').map((item) => {
    const [key, span] = item.trim().split('=');
    if (span === undefined) {
      return { key, start: null, end: null };
    }
    const [start = '', end = ''] = span.split('..');
    return { key, start: start.trim() === '' ? null : new Date(start.trim()), end: end.trim() === '' ? null : new Date(end.trim()) };
  });
}

/** Every variable the configuration reads (those with a default, then the optional ones). */
export function configVariables(): string[] {
  return [...Object.keys(new AppConfig()), 'HOST', 'APP_VERSION', 'RECAPTCHA_SECRET', 'RECAPTCHA_SITE_KEY', 'BANLIST_SOURCE_URL', 'COMMUNITY_BANLIST_SERVER', 'CORS_ORIGINS', 'TRUST_PROXY', 'REDIS_URL', 'RECAPTCHA_HOSTNAMES', 'RECAPTCHA_ACTIONS', 'METRICS_TOKEN', 'WEB_MAP_CITY_URL'];
}

/** Reads and validates the environment; throws ConfigError naming every bad variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): AppConfig {
  const supplied: Record<string, string> = {};
  for (const name of configVariables()) {
    const value = env[name];
    if (value !== undefined) {
      supplied[name] = value;
    }
  }
  const config = plainToInstance(AppConfig, supplied, { exposeDefaultValues: true });
  const errors = validateSync(config, { whitelist: false });
  if (errors.length > 0) {
    const accepts = acceptedValues(AppConfig);
    const lines = errors.map((error) => {
      const reason = describeProblem(error, supplied[error.property], accepts.get(error.property));
      // Most reasons start with the variable's name already ("PORT=abc is not a number").
      return reason.startsWith(error.property) ? reason : `${error.property}: ${reason}`;
    });
    throw new ConfigError(`Invalid configuration: ${lines.join('; ')}`);
  }
  const trustProxy = parseTrustProxy(config.TRUST_PROXY);
  if (typeof trustProxy === 'object' && !Array.isArray(trustProxy)) {
    throw new ConfigError(`Invalid configuration: ${trustProxy.error}`);
  }
  const cron = validateCronExpression(config.BANLIST_SYNC_CRON);
  if (!cron.valid) {
    throw new ConfigError(`Invalid configuration: BANLIST_SYNC_CRON is not a valid cron expression (${cron.error?.message ?? 'unreadable'})`);
  }
  if (config.CITY_BLOCK_MAX < config.CITY_BLOCK_LIMIT) {
    throw new ConfigError('Invalid configuration: CITY_BLOCK_MAX must not be below CITY_BLOCK_LIMIT');
  }
  if (config.DATABASE_LOCK_WAIT_SECONDS * 1000 >= config.DATABASE_QUERY_TIMEOUT_MS) {
    // Otherwise the statement's deadline drops the connection before InnoDB gives up the lock wait.
    throw new ConfigError('Invalid configuration: DATABASE_LOCK_WAIT_SECONDS must be below DATABASE_QUERY_TIMEOUT_MS');
  }
  if (config.CONSOLE_SESSION_IDLE_SECONDS > config.CONSOLE_SESSION_MAX_SECONDS) {
    throw new ConfigError('Invalid configuration: CONSOLE_SESSION_IDLE_SECONDS must not be above CONSOLE_SESSION_MAX_SECONDS');
  }
  try {
    new Intl.DateTimeFormat('en', { timeZone: config.COMMUNITY_TIME_ZONE });
  } catch {
    throw new ConfigError(`Invalid configuration: COMMUNITY_TIME_ZONE is not a time zone this Node knows (${config.COMMUNITY_TIME_ZONE})`);
  }
  const eras = config.eras;
  if (new Set(eras.map((era) => era.key)).size !== eras.length || eras.some((era) => [era.start, era.end].some((edge) => edge !== null && Number.isNaN(edge.getTime())))) {
    throw new ConfigError('Invalid configuration: PLAYER_ERAS has a repeated key or a date that is not ISO 8601 with a zone');
  }
  if (Number.isNaN(config.dataCutoff.getTime())) {
    throw new ConfigError('Invalid configuration: DATA_CUTOFF is not a valid date');
  }
  if (config.isProduction && config.RATE_LIMIT_TIME_SCALE !== 1) {
    throw new ConfigError('Invalid configuration: RATE_LIMIT_TIME_SCALE must be 1 when NODE_ENV=production (it shortens the sign-in limits; tests only)');
  }
  if (config.isProduction && !config.RECAPTCHA_SECRET) {
    throw new ConfigError('Invalid configuration: RECAPTCHA_SECRET is required when NODE_ENV=production');
  }
  return config;
}

/**
 * A setting's parsed form, kept per config object while the raw text is unchanged: the players
 * site's routes read these on every request (parsing PLAYER_ERAS showed in their profiles).
 */
const parsedSettings = new WeakMap<AppConfig, Map<string, { raw: string; value: unknown }>>();

function parsedOnce<T>(config: AppConfig, key: 'PLAYER_ERAS' | 'VOTE_SITES' | 'RANK_TITLE_WORDS', parse: (raw: string) => T): T {
  const raw = config[key];
  let parsed = parsedSettings.get(config);
  if (!parsed) {
    parsed = new Map();
    parsedSettings.set(config, parsed);
  }
  const known = parsed.get(key);
  if (known?.raw === raw) {
    return known.value as T;
  }
  const value = parse(raw);
  parsed.set(key, { raw, value });
  return value;
}
