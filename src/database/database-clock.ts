import { Injectable } from '@nestjs/common';
import { formatSqlDateTime, sqlDateTime, sqlUtcToMs } from './datetime.transformer';
import { DatabaseContext } from './database-context';

/**
 * The database server's clock, for decisions that several instances must take alike: who holds a lease
 * and until when, and which scheduled posts are due. Each process's own clock may be off (an instance 90 s
 * fast kept the publisher's lease for good and published early); the primary's is one clock for all.
 */
@Injectable()
export class DatabaseClock {
  constructor(private readonly db: DatabaseContext) {}

  /** The database's current UTC time as `YYYY-MM-DD HH:MM:SS` (whole seconds, as datetime columns hold). */
  async nowSqlUtc(): Promise<string> {
    return formatSqlDateTime(new Date(await this.nowMs()));
  }

  /** The database's current time in Unix milliseconds (to the millisecond, for `ClockSync`). */
  async nowMs(): Promise<number> {
    const manager = this.db.manager;
    // The one dialect difference: MySQL's CURRENT_TIMESTAMP follows the session's time zone, SQLite's is UTC.
    const sql =
      manager.connection.options.type === 'better-sqlite3'
        ? "SELECT strftime('%Y-%m-%d %H:%M:%f', 'now') AS now"
        : "SELECT DATE_FORMAT(UTC_TIMESTAMP(3), '%Y-%m-%d %H:%i:%s.%f') AS now";
    const [row] = await manager.query<{ now: string }[]>(sql);
    const ms = Date.parse(`${String(row.now).replace(' ', 'T').slice(0, 23)}Z`);
    if (Number.isNaN(ms)) throw new Error(`the database's clock said ${String(row.now)}`);
    return ms;
  }

  /** `sql` (`YYYY-MM-DD HH:MM:SS`, UTC) moved on by `ms`. */
  static plus(sql: string, ms: number): string {
    return String(sqlDateTime.from(new Date(sqlUtcToMs(sql) + ms)));
  }
}
