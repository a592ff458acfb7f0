import { plainToInstance, Transform } from 'class-transformer';
import {
  IsBoolean,
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  Matches,
  Max,
  Min,
  MinLength,
  validateSync,
  ValidateIf,
} from 'class-validator';
import { IANAZone } from 'luxon';
import { tlsOptions } from '../database/database-tls';
import { parseDatabaseUrl } from '../database/database-url';
import { registerDecorator } from 'class-validator';
import { parseTrustProxy, type TrustProxySetting } from './trust-proxy';

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** The level to log at before the configuration is validated (a bad value means info). */
export function earlyLogLevel(raw: string | undefined): LogLevel {
  return (LOG_LEVELS as readonly string[]).includes(raw ?? '') ? (raw as LogLevel) : 'info';
}

const LOG_FORMATS = ['auto', 'json', 'pretty'] as const;
export type LogFormat = (typeof LOG_FORMATS)[number];

/** `LOG_FORMAT` before the configuration is read (the first lines of a start), `auto` when unknown. */
export function earlyLogFormat(raw: string | undefined): LogFormat {
  return (LOG_FORMATS as readonly string[]).includes(raw ?? '') ? (raw as LogFormat) : 'auto';
}

const toInt = ({ value }: { value: unknown }): unknown =>
  typeof value === 'string' && /^-?\d+$/.test(value.trim()) ? Number(value.trim()) : value;

const toBool = ({ value }: { value: unknown }): unknown => {
  if (typeof value !== 'string') return value;
  const v = value.trim().toLowerCase();
  if (['1', 'true', 'yes', 'on'].includes(v)) return true;
  if (['0', 'false', 'no', 'off', ''].includes(v)) return false;
  return value;
};

function IsIanaZone(): PropertyDecorator {
  return (target, propertyName) =>
    registerDecorator({
      name: 'isIanaZone',
      target: target.constructor,
      propertyName: propertyName as string,
      validator: {
        validate: (value: unknown) => typeof value === 'string' && IANAZone.isValidZone(value),
        defaultMessage: () => 'must be an IANA time zone name such as Europe/Berlin or UTC',
      },
    });
}

function IsTrustProxy(): PropertyDecorator {
  return (target, propertyName) =>
    registerDecorator({
      name: 'isTrustProxy',
      target: target.constructor,
      propertyName: propertyName as string,
      validator: {
        // The transform has parsed a valid value; what is still a string did not parse.
        validate: (value: unknown) => typeof value === 'boolean' || typeof value === 'number' || Array.isArray(value),
        defaultMessage: () =>
          'must be false, a hop count from 1 to 32 (1: one reverse proxy in front), or a comma-separated list ' +
          'of proxy addresses and subnets (10.0.0.0/8, loopback, linklocal, uniquelocal); true trusts every hop',
      },
    });
}

/**
 * Every environment variable the service reads. Defaults make `npm start` work on a fresh machine.
 * `.env.example` documents each one; keep both in step.
 */
export class EnvironmentVariables {
  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(65535)
  PORT = 3000;

  @IsString()
  @MinLength(1)
  HOST = '0.0.0.0';

  @IsString()
  @Matches(/^(sqlite:.+|mysql:\/\/.+|mariadb:\/\/.+)$/, {
    message: 'must be sqlite:<file> or mysql://user:pass@host:port/database',
  })
  DATABASE_URL = 'sqlite:./data/calendar.sqlite';

  /** MySQL/MariaDB read replicas (comma list of mysql:// URLs): reads go there, writes to DATABASE_URL. */
  @Matches(/^$|^((mysql|mariadb):\/\/[^,\s]+)(,\s*(mysql|mariadb):\/\/[^,\s]+)*$/, {
    message: 'must be a comma-separated list of mysql://user:pass@host:port/database URLs',
  })
  DATABASE_READ_URLS = '';

  /**
   * After a write, that user's reads go to the primary until a replica has applied it, and for at least
   * this long after it ended; 0 turns read-your-writes off.
   */
  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(3600)
  READ_YOUR_WRITES_SECONDS = 5;

  /**
   * `false`: event reads take the exact query and assemble every event, without the day counts, the word
   * index, the index skip, the reused totals or the stored documents. A diagnostic switch (and the reference
   * the fast paths are tested against), not a setting for production: those reads are far slower.
   */
  @Transform(toBool)
  @IsBoolean()
  READ_FAST_PATHS = true;

  /** Replicas are read only while they are at most this far behind the primary; else reads go there. */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(86400)
  REPLICA_MAX_LAG_SECONDS = 5;

  @Transform(toBool)
  @IsBoolean()
  DB_MIGRATIONS_RUN = true;

  @Transform(toBool)
  @IsBoolean()
  DB_LOGGING = false;

  @IsIanaZone()
  SITE_TIMEZONE = 'UTC';

  /**
   * Extension modules to load beside the calendar's: module files, comma-separated, resolved from the working
   * directory (extension-modules.ts). Every entry point reads it: the server, its cluster workers, the CLI.
   */
  @IsString()
  CAL_EXTENSIONS = '';

  @IsString()
  @Matches(/^(|\/[A-Za-z0-9._~\-/]*[A-Za-z0-9._~-])$/, {
    message: 'must be empty or a path such as /api (leading slash, no trailing slash)',
  })
  API_PREFIX = '';

  @IsOptional()
  @ValidateIf((_o, v) => v !== '')
  @Matches(/^https?:\/\/[^\s/]+(\/[^\s]*)?$/, { message: 'must be an http(s) URL without a trailing path slash' })
  PUBLIC_URL?: string;

  /**
   * The host `global_id` and iCalendar UIDs are made of. Unset: the one recorded in the database, else
   * PUBLIC_URL's (recorded at start), else each request's (SiteIdentity).
   */
  @IsOptional()
  @ValidateIf((_o, v) => v !== '')
  @Matches(/^[A-Za-z0-9]([A-Za-z0-9.-]*[A-Za-z0-9])?(:\d{1,5})?$/, {
    message: 'must be a host name, such as cal.example.org',
  })
  GLOBAL_ID_HOST?: string;

  @IsString()
  @Matches(/^[A-Za-z0-9.,\s[\]:-]*$/, { message: 'must be a comma-separated list of host names' })
  ALLOWED_HOSTS = '';

  /** Express's `trust proxy`: false, a hop count, or our proxies' addresses and subnets (trust-proxy.ts). */
  @Transform(({ value }: { value: unknown }) => parseTrustProxy(value) ?? value)
  @IsTrustProxy()
  TRUST_PROXY: TrustProxySetting = false;

  @IsIn(LOG_LEVELS)
  LOG_LEVEL: LogLevel = 'info';

  /**
   * `auto`: short human lines (pino-pretty) when the output is a terminal, JSON lines otherwise (a collector,
   * a file, Docker); `json` or `pretty` whatever the output.
   */
  @IsIn(LOG_FORMATS)
  LOG_FORMAT: LogFormat = 'auto';

  /** When set, `GET /metrics` wants `Authorization: Bearer <METRICS_TOKEN>`; closed otherwise, unless METRICS_OPEN. */
  @IsOptional()
  @ValidateIf((_o, v) => v !== '')
  @IsString()
  @MinLength(16, { message: 'must be at least 16 characters long' })
  METRICS_TOKEN?: string;

  /** `GET /metrics` without a token, to anyone who reaches it (a network where only the scraper does). */
  @Transform(toBool)
  @IsBoolean()
  METRICS_OPEN = false;

  @Transform(toInt)
  @IsInt()
  @Min(1024)
  @Max(64 * 1024 * 1024)
  BODY_LIMIT_BYTES = 1024 * 1024;

  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(100)
  MAX_PER_PAGE = 50;

  /** The API also under `/wp-json/tribe/events/v1`, with the reference's names (docs/calendar-clients.md). */
  @Transform(toBool)
  @IsBoolean()
  TEC_COMPAT = true;

  /** The most events an iCalendar feed may hold; a feed that would hold more answers 400. */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(100000)
  ICAL_MAX_EVENTS = 10000;

  /**
   * Event feeds this process writes at once; more wait their turn, up to as many again, and the rest get
   * 503 with Retry-After. A full feed reads and formats thousands of events: unbounded, sixteen of them
   * slowed every other request by seventy times.
   */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(64)
  ICAL_CONCURRENT_FEEDS = 2;

  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(3600)
  FUTURE_POSTS_INTERVAL_SECONDS = 30;

  /**
   * The process clock is checked against the database's at start and this often; what decides publishing
   * (and every read that asks whether a post is published yet) uses the corrected time (docs/operations.md).
   */
  @Transform(toInt)
  @IsInt()
  @Min(5)
  @Max(3600)
  CLOCK_CHECK_SECONDS = 60;

  /** A process clock further than this from the database's is logged (warn) and shown in readiness. */
  @Transform(toInt)
  @IsInt()
  @Min(10)
  @Max(3_600_000)
  CLOCK_MAX_SKEW_MS = 2000;

  /** `false` trusts the process clock as it is (no check against the database). */
  @Transform(toBool)
  @IsBoolean()
  CLOCK_SYNC = true;

  /** Drills and tests only: moves this process's own clock (a skewed instance), before any correction. */
  @Transform(toInt)
  @IsInt()
  @Min(-86_400_000)
  @Max(86_400_000)
  CLOCK_OFFSET_MS = 0;

  /** Redis for what several instances share: with it, webhook deliveries run on a BullMQ queue. */
  @IsOptional()
  @ValidateIf((_o, v) => v !== '')
  @Matches(/^rediss?:\/\/\S+$/, { message: 'must be a redis:// or rediss:// URL' })
  REDIS_URL?: string;

  /** Prefix of this service's keys in Redis (several services, or test runs, may share one Redis). */
  @Matches(/^[A-Za-z0-9_-]{1,40}$/, { message: 'must be 1–40 letters, digits, - or _' })
  REDIS_KEY_PREFIX = 'cal';

  /**
   * How long a Redis command may take before the caller falls back to its degraded mode; a Redis that
   * takes longer (frozen, not stopped) is then treated as down until it answers again.
   */
  @Transform(toInt)
  @IsInt()
  @Min(50)
  @Max(60000)
  REDIS_COMMAND_TIMEOUT_MS = 500;

  /** Refresh the import subscriptions that are due in this process (one instance at a time, by a lease). */
  @Transform(toBool)
  @IsBoolean()
  IMPORTS_SCHEDULER = true;

  /** Allow import subscription URLs on loopback, private and link-local addresses (tests, closed networks). */
  @Transform(toBool)
  @IsBoolean()
  IMPORTS_ALLOW_PRIVATE = false;

  /** How often the scheduler looks for subscriptions that are due. */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(3600)
  IMPORTS_POLL_SECONDS = 60;

  /** How long one request to an import source may take, redirects included. */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(600)
  IMPORTS_FETCH_TIMEOUT_SECONDS = 60;

  /** The largest answer an import source may send (one iCalendar file, one page of a TEC list), in MB. */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(1024)
  IMPORTS_MAX_MB = 50;

  /** Most VEVENTs one iCalendar feed may hold; a larger feed's run fails before it is parsed. */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(1_000_000)
  IMPORTS_MAX_VEVENTS = 50_000;

  /** Most VTIMEZONEs one iCalendar feed may hold. */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(1000)
  IMPORTS_MAX_VTIMEZONES = 20;

  /** Most observances (STANDARD, DAYLIGHT) one VTIMEZONE of a feed may hold. */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(10_000)
  IMPORTS_MAX_OBSERVANCES = 100;

  /** Most properties one component of a feed may hold (each value of an RDATE or EXDATE list counted). */
  @Transform(toInt)
  @IsInt()
  @Min(10)
  @Max(100_000)
  IMPORTS_MAX_PROPERTIES = 1000;

  /** The heap a feed's parse may use, in a worker thread of its own: past it, the run fails, the process stays. */
  @Transform(toInt)
  @IsInt()
  @Min(16)
  @Max(8192)
  IMPORTS_PARSE_MEMORY_MB = 256;

  /** How long a feed's parse may take in its worker thread before the run fails. */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(3600)
  IMPORTS_PARSE_TIMEOUT_SECONDS = 60;

  /**
   * Carry out import runs from the queue in this process (with `REDIS_URL`; without it, a run goes on in the
   * process that started it). `false` leaves them to the other instances.
   */
  @Transform(toBool)
  @IsBoolean()
  IMPORTS_WORKER = true;

  /** How long a run's instance may be silent before another instance takes the run up (with `REDIS_URL`). */
  @Transform(toInt)
  @IsInt()
  @Min(2)
  @Max(600)
  IMPORTS_RUN_LOCK_SECONDS = 20;

  /** Most rows one CSV may hold (`import:csv`); a larger file is refused before anything is written. */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(1_000_000)
  IMPORTS_MAX_ROWS = 50_000;

  /** Most pages of one TEC list an import reads, whatever the site says it has. */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(100_000)
  IMPORTS_MAX_PAGES = 1000;

  /**
   * Runs of a subscription that may fail as a whole (source unreadable, over a budget, its instance died)
   * in a row before the scheduler suspends it; 0 never suspends.
   */
  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(1000)
  IMPORTS_SUSPEND_AFTER = 3;

  /**
   * The key that seals the passwords import subscriptions keep (AES-256-GCM): 32 or more random characters
   * (`openssl rand -base64 32`). Without it a subscription cannot keep a password. Every instance needs the same.
   */
  @Matches(/^$|^\S{32,}$/, { message: 'must be empty or at least 32 characters without spaces' })
  CREDENTIALS_KEY = '';

  /** Keys that sealed passwords before the current one (comma list): read, then sealed again with the current. */
  @Matches(/^$|^\S{32,}(,\s*\S{32,})*$/, { message: 'must be a comma list of keys of at least 32 characters' })
  CREDENTIALS_PREVIOUS_KEYS = '';

  /** Run the webhook worker in this process (dispatch changes, send deliveries). */
  @Transform(toBool)
  @IsBoolean()
  WEBHOOKS_WORKER = true;

  /** Allow endpoint URLs on loopback, private and link-local addresses (tests, closed networks). */
  @Transform(toBool)
  @IsBoolean()
  WEBHOOKS_ALLOW_PRIVATE = false;

  /** How often the worker looks for changes and due deliveries. */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(3600)
  WEBHOOKS_POLL_SECONDS = 2;

  /** The first retry's delay (doubled per attempt, up to an hour, with jitter). */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(3_600_000)
  WEBHOOKS_RETRY_BASE_MS = 30_000;

  /** How long a delivery is retried before it fails and its endpoint is disabled. */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(720)
  WEBHOOKS_RETRY_HOURS = 24;

  /** Time a receiver has to answer. */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(120)
  WEBHOOKS_TIMEOUT_SECONDS = 10;

  /** How long a worker holds a delivery it sends; another worker takes it over after that (crash). */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(3600)
  WEBHOOKS_LEASE_SECONDS = 60;

  /** Days finished webhook deliveries (delivered, failed) stay visible before they are deleted. */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(3650)
  WEBHOOKS_DELIVERY_RETENTION_DAYS = 30;

  /** Days the change log keeps its rows; sync tokens older than that answer 410. */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(3650)
  CHANGE_LOG_RETENTION_DAYS = 30;

  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(4096)
  RESPONSE_CACHE_MB = 32;

  @IsString()
  @MinLength(1)
  @Matches(/^\S{1,10}$/, { message: 'must be 1–10 characters without spaces' })
  DEFAULT_CURRENCY_SYMBOL = '$';

  @Matches(/^[A-Z]{3}$/, { message: 'must be an ISO 4217 code such as USD or EUR' })
  DEFAULT_CURRENCY_CODE = 'USD';

  @IsIn(['prefix', 'postfix'])
  DEFAULT_CURRENCY_POSITION: 'prefix' | 'postfix' = 'prefix';

  @IsOptional()
  @ValidateIf((_o, v) => v !== '')
  @Matches(/^[A-Za-z0-9._@-]{1,60}$/, { message: 'must be 1–60 letters, digits or . _ @ -' })
  CAL_ADMIN_LOGIN?: string;

  @IsOptional()
  @ValidateIf((_o, v) => v !== '')
  @IsString()
  @MinLength(12, { message: 'must be at least 12 characters long' })
  CAL_ADMIN_PASSWORD?: string;

  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(300)
  AUTH_CACHE_SECONDS = 5;

  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(10000)
  AUTH_FAILURE_LIMIT = 10;

  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(86400)
  AUTH_FAILURE_WINDOW_SECONDS = 600;

  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(1000000)
  AUTH_LOGIN_FAILURE_LIMIT = 100;

  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(3600)
  DB_QUERY_TIMEOUT_SECONDS = 15;

  @Transform(toBool)
  @IsBoolean()
  GEO_ENABLED = false;

  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(3600)
  HTTP_REQUEST_TIMEOUT_SECONDS = 30;

  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(3600)
  HTTP_HEADERS_TIMEOUT_SECONDS = 20;

  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(86400)
  AUTH_LOCKOUT_SECONDS = 30;

  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(604800)
  AUTH_LOCKOUT_MAX_SECONDS = 3600;
}

/**
 * The reason a value fails: its type's alone when that fails (`PORT="abc"` is not an integer; that it is
 * also neither above 0 nor below 65535 only confuses), else every rule it breaks.
 */
function mainReason(constraints: Record<string, string>): string {
  const typeRule = ['isInt', 'isNumber', 'isBoolean', 'isIn', 'isEnum', 'isUrl', 'isString'].find(
    (r) => r in constraints,
  );
  return typeRule ? constraints[typeRule] : Object.values(constraints).join('; ');
}

/** Settings without a default (absent from `new EnvironmentVariables()`). */
export const OPTIONAL_SETTINGS = [
  'PUBLIC_URL',
  'GLOBAL_ID_HOST',
  'REDIS_URL',
  'CAL_ADMIN_LOGIN',
  'CAL_ADMIN_PASSWORD',
  'METRICS_TOKEN',
] as const;

/** Bad settings, one line each (`NAME=value: reason`), so an operator fixes them all at once. */
export class ConfigurationError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  ${p}`).join('\n')}`);
  }
}

/**
 * Validates raw variables; throws one error naming every bad variable, so an operator fixes them all at once.
 */
export function validateEnvironment(raw: Record<string, unknown>): EnvironmentVariables {
  const known = Object.keys(new EnvironmentVariables());
  const picked: Record<string, unknown> = {};
  for (const key of [...known, ...OPTIONAL_SETTINGS]) {
    if (raw[key] !== undefined) picked[key] = raw[key];
  }
  const env = plainToInstance(EnvironmentVariables, picked, { exposeDefaultValues: true });
  const errors = validateSync(env, { skipMissingProperties: false, forbidUnknownValues: false });
  if (errors.length > 0) {
    const lines = errors.map((e) => {
      const reasons = mainReason(e.constraints ?? {});
      return `${e.property}=${displayedValue(e.property, e.value)}: ${reasons}`;
    });
    throw new ConfigurationError(lines);
  }
  if (env.PUBLIC_URL === '') env.PUBLIC_URL = undefined;
  if (env.GLOBAL_ID_HOST === '') env.GLOBAL_ID_HOST = undefined;
  if (env.CAL_ADMIN_LOGIN === '') env.CAL_ADMIN_LOGIN = undefined;
  if (env.CAL_ADMIN_PASSWORD === '') env.CAL_ADMIN_PASSWORD = undefined;
  if (env.METRICS_TOKEN === '') env.METRICS_TOKEN = undefined;
  if ((env.CAL_ADMIN_LOGIN === undefined) !== (env.CAL_ADMIN_PASSWORD === undefined)) {
    throw new ConfigurationError(['CAL_ADMIN_LOGIN and CAL_ADMIN_PASSWORD must be set together']);
  }
  const urlProblems = databaseUrlProblems(env);
  if (urlProblems.length > 0) throw new ConfigurationError(urlProblems);
  return env;
}

/** What the shape checks above cannot see in the database URLs: their parameters (database-url.ts). */
function databaseUrlProblems(env: EnvironmentVariables): string[] {
  const urls: [string, string][] = [
    ['DATABASE_URL', env.DATABASE_URL],
    ...env.DATABASE_READ_URLS.split(',')
      .map((u) => u.trim())
      .filter((u) => u !== '')
      .map((u): [string, string] => ['DATABASE_READ_URLS', u]),
  ];
  const problems: string[] = [];
  for (const [name, url] of urls) {
    try {
      const target = parseDatabaseUrl(url);
      if (target.kind === 'mysql' && target.connection.tls.caFile !== undefined) {
        tlsOptions(target.connection.tls);
      }
    } catch (error) {
      problems.push(`${name}=${displayedValue(name, url)}: ${(error as Error).message.replace(/^DATABASE_URL: /, '')}`);
    }
  }
  return problems;
}

const SECRET_SETTING = /PASSWORD|SECRET|TOKEN|_KEY$/;

/**
 * A setting's value as a configuration error may show it: secrets never (they end up in logs and CI
 * output), a URL without its password.
 */
export function displayedValue(name: string, value: unknown): string {
  if (SECRET_SETTING.test(name)) return value === undefined ? 'undefined' : '[redacted]';
  if (typeof value === 'string' && /^[a-z][a-z0-9+.-]*:\/\//i.test(value)) {
    return JSON.stringify(value.replace(/^([^:]+:\/\/[^:@/]*:)[^@/]*@/, '$1[redacted]@'));
  }
  return JSON.stringify(value);
}
