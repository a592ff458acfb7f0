import { Inject, Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import type { EnvironmentVariables, LogFormat, LogLevel } from './env.schema';
import type { TrustProxySetting } from './trust-proxy';

/** Typed, read-only view of the validated environment; the only way services read configuration. */
@Injectable()
export class AppConfig {
  constructor(@Inject(ConfigService) private readonly config: ConfigService<EnvironmentVariables, true>) {}

  private get<K extends keyof EnvironmentVariables>(key: K): EnvironmentVariables[K] {
    return this.config.get(key, { infer: true });
  }

  get port(): number {
    return this.get('PORT');
  }
  get host(): string {
    return this.get('HOST');
  }
  get databaseUrl(): string {
    return this.get('DATABASE_URL');
  }
  get migrationsRun(): boolean {
    return this.get('DB_MIGRATIONS_RUN');
  }
  /** The optional geolocation module (venue coordinates, `geoloc*` event filters). */
  get geoEnabled(): boolean {
    return this.get('GEO_ENABLED');
  }
  get databaseQueryTimeoutSeconds(): number {
    return this.get('DB_QUERY_TIMEOUT_SECONDS');
  }
  /** Whole-request and header deadlines of the HTTP server (slow clients). */
  get httpTimeouts(): { requestMs: number; headersMs: number } {
    return {
      requestMs: this.get('HTTP_REQUEST_TIMEOUT_SECONDS') * 1000,
      headersMs: this.get('HTTP_HEADERS_TIMEOUT_SECONDS') * 1000,
    };
  }
  get databaseLogging(): boolean {
    return this.get('DB_LOGGING');
  }
  get siteTimezone(): string {
    return this.get('SITE_TIMEZONE');
  }
  get apiPrefix(): string {
    return this.get('API_PREFIX');
  }
  get publicUrl(): string | undefined {
    return this.get('PUBLIC_URL');
  }
  /** `GLOBAL_ID_HOST`: the host of global ids and UIDs, pinned by the operator. */
  get globalIdHost(): string | undefined {
    return this.get('GLOBAL_ID_HOST');
  }
  /** Host names the `Host` header may carry when `PUBLIC_URL` is not set; empty: any well-formed one. */
  get allowedHosts(): string[] {
    return this.get('ALLOWED_HOSTS')
      .split(',')
      .map((h) => h.trim().toLowerCase())
      .filter((h) => h !== '');
  }
  get trustProxy(): TrustProxySetting {
    return this.get('TRUST_PROXY');
  }
  get metricsToken(): string | undefined {
    return this.get('METRICS_TOKEN');
  }
  /** `READ_FAST_PATHS`: event reads may use the count tables, the word index and stored documents. */
  get readFastPaths(): boolean {
    return this.get('READ_FAST_PATHS');
  }
  get metricsOpen(): boolean {
    return this.get('METRICS_OPEN');
  }
  get logLevel(): LogLevel {
    return this.get('LOG_LEVEL');
  }
  get logFormat(): LogFormat {
    return this.get('LOG_FORMAT');
  }
  get bodyLimitBytes(): number {
    return this.get('BODY_LIMIT_BYTES');
  }
  get maxPerPage(): number {
    return this.get('MAX_PER_PAGE');
  }
  get tecCompat(): boolean {
    return this.get('TEC_COMPAT');
  }
  get icalMaxEvents(): number {
    return this.get('ICAL_MAX_EVENTS');
  }
  get icalConcurrentFeeds(): number {
    return this.get('ICAL_CONCURRENT_FEEDS');
  }
  /** The key that seals stored credentials, and the keys that sealed them before (rotation); empty: none. */
  get credentialKeys(): { current: string; previous: string[] } {
    return {
      current: this.get('CREDENTIALS_KEY'),
      previous: this.get('CREDENTIALS_PREVIOUS_KEYS')
        .split(',')
        .map((key) => key.trim())
        .filter((key) => key !== ''),
    };
  }
  get imports(): {
    scheduler: boolean;
    allowPrivate: boolean;
    pollMs: number;
    fetchTimeoutMs: number;
    maxBytes: number;
    ical: { vevents: number; vtimezones: number; observances: number; properties: number };
    parse: { memoryMb: number; timeoutMs: number };
    maxPages: number;
    maxRows: number;
    suspendAfter: number;
    worker: boolean;
    runLockMs: number;
  } {
    return {
      scheduler: this.get('IMPORTS_SCHEDULER'),
      allowPrivate: this.get('IMPORTS_ALLOW_PRIVATE'),
      pollMs: this.get('IMPORTS_POLL_SECONDS') * 1000,
      fetchTimeoutMs: this.get('IMPORTS_FETCH_TIMEOUT_SECONDS') * 1000,
      maxBytes: this.get('IMPORTS_MAX_MB') * 1024 * 1024,
      ical: {
        vevents: this.get('IMPORTS_MAX_VEVENTS'),
        vtimezones: this.get('IMPORTS_MAX_VTIMEZONES'),
        observances: this.get('IMPORTS_MAX_OBSERVANCES'),
        properties: this.get('IMPORTS_MAX_PROPERTIES'),
      },
      parse: {
        memoryMb: this.get('IMPORTS_PARSE_MEMORY_MB'),
        timeoutMs: this.get('IMPORTS_PARSE_TIMEOUT_SECONDS') * 1000,
      },
      maxPages: this.get('IMPORTS_MAX_PAGES'),
      maxRows: this.get('IMPORTS_MAX_ROWS'),
      worker: this.get('IMPORTS_WORKER'),
      runLockMs: this.get('IMPORTS_RUN_LOCK_SECONDS') * 1000,
      suspendAfter: this.get('IMPORTS_SUSPEND_AFTER'),
    };
  }
  get webhooks(): {
    worker: boolean;
    allowPrivate: boolean;
    pollMs: number;
    retryBaseMs: number;
    retryWindowMs: number;
    timeoutMs: number;
    leaseMs: number;
    deliveryRetentionDays: number;
  } {
    return {
      worker: this.get('WEBHOOKS_WORKER'),
      allowPrivate: this.get('WEBHOOKS_ALLOW_PRIVATE'),
      pollMs: this.get('WEBHOOKS_POLL_SECONDS') * 1000,
      retryBaseMs: this.get('WEBHOOKS_RETRY_BASE_MS'),
      retryWindowMs: this.get('WEBHOOKS_RETRY_HOURS') * 3_600_000,
      timeoutMs: this.get('WEBHOOKS_TIMEOUT_SECONDS') * 1000,
      leaseMs: this.get('WEBHOOKS_LEASE_SECONDS') * 1000,
      deliveryRetentionDays: this.get('WEBHOOKS_DELIVERY_RETENTION_DAYS'),
    };
  }
  /** Redis (`REDIS_URL`), or null for a single instance without it. */
  get redis(): { url: string; prefix: string; commandTimeoutMs: number } | null {
    const url = this.get('REDIS_URL');
    return url
      ? { url, prefix: this.get('REDIS_KEY_PREFIX'), commandTimeoutMs: this.get('REDIS_COMMAND_TIMEOUT_MS') }
      : null;
  }
  /** Read replicas (`DATABASE_READ_URLS`); empty without them. */
  get databaseReadUrls(): string[] {
    return this.get('DATABASE_READ_URLS')
      .split(',')
      .map((u) => u.trim())
      .filter((u) => u !== '');
  }
  get readYourWritesMs(): number {
    return this.get('READ_YOUR_WRITES_SECONDS') * 1000;
  }
  get replicaMaxLagSeconds(): number {
    return this.get('REPLICA_MAX_LAG_SECONDS');
  }
  get changeLogRetentionDays(): number {
    return this.get('CHANGE_LOG_RETENTION_DAYS');
  }
  get futurePostsIntervalSeconds(): number {
    return this.get('FUTURE_POSTS_INTERVAL_SECONDS');
  }
  get clockSync(): { enabled: boolean; checkMs: number; maxSkewMs: number; offsetMs: number } {
    return {
      enabled: this.get('CLOCK_SYNC'),
      checkMs: this.get('CLOCK_CHECK_SECONDS') * 1000,
      maxSkewMs: this.get('CLOCK_MAX_SKEW_MS'),
      offsetMs: this.get('CLOCK_OFFSET_MS'),
    };
  }
  /** The administrator to create at start-up when it does not exist yet. */
  get bootstrapAdmin(): { login: string; password: string } | null {
    const login = this.get('CAL_ADMIN_LOGIN');
    const password = this.get('CAL_ADMIN_PASSWORD');
    return login && password ? { login, password } : null;
  }
  /** Memory for cached read answers and list totals, exact by content version; 0 turns caching off. */
  get responseCacheBytes(): number {
    return this.get('RESPONSE_CACHE_MB') * 1024 * 1024;
  }
  /** Currency of costs that name none (`"15"`). */
  get defaultCurrency(): { symbol: string; code: string; position: 'prefix' | 'postfix' } {
    return {
      symbol: this.get('DEFAULT_CURRENCY_SYMBOL'),
      code: this.get('DEFAULT_CURRENCY_CODE'),
      position: this.get('DEFAULT_CURRENCY_POSITION'),
    };
  }
  get authCacheSeconds(): number {
    return this.get('AUTH_CACHE_SECONDS');
  }
  /** Brute-force limits for logins (per login and address, per login) and event passwords. */
  get authLimits(): {
    failures: number;
    loginFailures: number;
    windowSeconds: number;
    lockoutSeconds: number;
    maxLockoutSeconds: number;
  } {
    return {
      failures: this.get('AUTH_FAILURE_LIMIT'),
      loginFailures: this.get('AUTH_LOGIN_FAILURE_LIMIT'),
      windowSeconds: this.get('AUTH_FAILURE_WINDOW_SECONDS'),
      lockoutSeconds: this.get('AUTH_LOCKOUT_SECONDS'),
      maxLockoutSeconds: Math.max(this.get('AUTH_LOCKOUT_MAX_SECONDS'), this.get('AUTH_LOCKOUT_SECONDS')),
    };
  }
}
