import { Injectable, Logger, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { AppConfig } from '../config/app-config';
import { driverErrorOf } from '../common/errors/driver-errors';

/** What this guard uses of a mysql2 connection. */
interface DriverConnection {
  query: (...args: unknown[]) => unknown;
  destroy(): void;
  release?(): void;
  on(event: 'error', listener: () => void): unknown;
}

/** What this guard uses of TypeORM's MySQL driver (its own members, read at run time). */
interface MysqlDriverMembers {
  options: { type: string; replication?: { master: object } };
  mysql: { createConnection(options: object): DriverConnection };
  createConnectionOptions(options: object, credentials: object): object;
  prepareDbConnection(connection: DriverConnection): DriverConnection;
  obtainMasterConnection(): Promise<DriverConnection>;
}

const RETRY_EVERY_MS = 1000;
/** The longest a probe waits for a fresh connection to answer `SELECT 1`. */
const PROBE_LIMIT_MS = 5000;

/** The error of a request turned away while the primary is not answering (a 503, like a timeout). */
export class StalledServerError extends Error {
  readonly code = 'PROTOCOL_SEQUENCE_TIMEOUT';
  constructor() {
    super('the database server has stopped answering; trying it again every second');
  }
}

function isTimeout(error: unknown): boolean {
  const code = driverErrorOf(error)?.code;
  return code === 'PROTOCOL_SEQUENCE_TIMEOUT' || code === 'ETIMEDOUT';
}

/**
 * Bounds what a request can wait for a MySQL server that stopped answering without closing its
 * connections (hung, frozen, a network that drops packets).
 *
 * - A connection whose statement timed out (`DB_QUERY_TIMEOUT_SECONDS`) is destroyed. mysql2 leaves the
 *   timed-out statement running on it, so the pool would hand it to the next request, whose statement would
 *   queue behind the dead one with no timer of its own: it waited for as long as the server was frozen.
 * - After a timeout a probe opens a fresh connection (outside the pool) and asks `SELECT 1`. Only when that
 *   fails too is the server taken for stalled: requests waiting for a pooled connection get a 503 at once,
 *   and so does every new one, until a probe (every second) gets an answer. One slow statement on a healthy
 *   server therefore turns no one away.
 *
 * So a request waits at most about one statement timeout (plus a probe) where it waited two or more.
 */
@Injectable()
export class StalledServerGuard implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger('Database');
  private driver: MysqlDriverMembers | null = null;
  private probing: Promise<boolean> | null = null;
  private retryTimer: NodeJS.Timeout | null = null;
  /** Requests waiting for a pooled connection to the primary: told when the server is found stalled. */
  private readonly waiting = new Set<(error: Error) => void>();
  private readonly patched = new WeakSet<DriverConnection>();
  /** The primary did not answer the last probe: requests are turned away until one succeeds. */
  stalled = false;

  constructor(
    private readonly dataSource: DataSource,
    private readonly config: AppConfig,
  ) {}

  onModuleInit(): void {
    const driver = this.dataSource.driver as unknown as MysqlDriverMembers;
    if (driver.options.type !== 'mysql' || typeof driver.obtainMasterConnection !== 'function') return;
    this.driver = driver;
    const prepare = driver.prepareDbConnection.bind(driver);
    driver.prepareDbConnection = (connection) => this.dropOnTimeout(prepare(connection));
    const obtain = driver.obtainMasterConnection.bind(driver);
    driver.obtainMasterConnection = () => this.obtain(obtain);
  }

  onApplicationShutdown(): void {
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = null;
  }

  /** Asks the primary on a fresh connection whether it answers; remembers and returns the answer. */
  probe(): Promise<boolean> {
    this.probing ??= this.probeNow().finally(() => (this.probing = null));
    return this.probing;
  }

  private async obtain(obtain: () => Promise<DriverConnection>): Promise<DriverConnection> {
    if (this.stalled) throw new StalledServerError();
    let turnAway: (error: Error) => void = () => undefined;
    const turnedAway = new Promise<never>((_, reject) => (turnAway = reject));
    this.waiting.add(turnAway);
    const obtaining = obtain();
    try {
      return await Promise.race([obtaining, turnedAway]);
    } catch (error) {
      // A connection that comes after its request was turned away goes back to the pool.
      obtaining.then(
        (late) => late.release?.(),
        () => undefined,
      );
      if (isTimeout(error)) this.suspect();
      throw error;
    } finally {
      this.waiting.delete(turnAway);
    }
  }

  private dropOnTimeout(connection: DriverConnection): DriverConnection {
    if (this.patched.has(connection)) return connection;
    this.patched.add(connection);
    const query = connection.query.bind(connection);
    connection.query = (...args: unknown[]) => {
      const last = args.length - 1;
      const callback = args[last];
      if (typeof callback === 'function') {
        args[last] = (error: unknown, ...rest: unknown[]) => {
          if (error && isTimeout(error)) {
            connection.destroy();
            this.suspect();
          }
          (callback as (...a: unknown[]) => void)(error, ...rest);
        };
      }
      return query(...args);
    };
    return connection;
  }

  private suspect(): void {
    if (!this.stalled) void this.probe();
  }

  private async probeNow(): Promise<boolean> {
    const answered = await this.ask();
    if (answered !== !this.stalled) {
      if (answered) this.logger.log('the database server answers again');
      else this.logger.error('the database server has stopped answering: requests get 503 until it answers');
    }
    this.stalled = !answered;
    if (this.stalled) {
      for (const turnAway of [...this.waiting]) turnAway(new StalledServerError());
      this.waiting.clear();
      this.retryTimer ??= setTimeout(() => {
        this.retryTimer = null;
        void this.probe();
      }, RETRY_EVERY_MS).unref();
    }
    return answered;
  }

  private ask(): Promise<boolean> {
    const driver = this.driver;
    if (!driver) return Promise.resolve(true);
    const limitMs = Math.min(PROBE_LIMIT_MS, this.config.databaseQueryTimeoutSeconds * 1000);
    const credentials = driver.options.replication?.master ?? driver.options;
    return new Promise<boolean>((resolve) => {
      let connection: DriverConnection | null = null;
      const done = (answered: boolean) => {
        clearTimeout(timer);
        connection?.destroy();
        resolve(answered);
      };
      const timer = setTimeout(() => done(false), limitMs);
      try {
        connection = driver.mysql.createConnection(driver.createConnectionOptions(driver.options, credentials));
        connection.on('error', () => done(false));
        connection.query({ sql: 'SELECT 1', timeout: limitMs }, (error: unknown) => done(!error));
      } catch {
        done(false);
      }
    });
  }
}
