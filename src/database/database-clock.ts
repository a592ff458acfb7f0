import { Injectable } from '@nestjs/common';
import { sqlDateTime, sqlUtcToMs } from './datetime.transformer';
import { DatabaseContext } from './database-context';

/**
 * The database server's clock, for decisions that several instances must take alike: who holds a lease
 * and until when, and which scheduled posts are due. Each process's own clock may be off (an instance 90 s
 * fast kept the publisher's lease for good and published early); the primary's is one clock for all.
 */
@Injectable()
export class DatabaseClock {
  constructor(private readonly db: DatabaseContext) {}

  /** The database's current UTC time as `YYYY-MM-DD HH:MM:SS`. */
  async nowSqlUtc(): Promise<string> {
    const manager = this.db.manager;
    // The one dialect difference: MySQL's CURRENT_TIMESTAMP follows the session's time zone, SQLite's is UTC.
    const sql =
      manager.connection.options.type === 'better-sqlite3'
        ? "SELECT strftime('%Y-%m-%d %H:%M:%S', 'now') AS now"
        : 'SELECT UTC_TIMESTAMP() AS now';
    const [row] = await manager.query<{ now: string | Date }[]>(sql);
    return String(sqlDateTime.from(row.now));
  }

  /** `sql` (`YYYY-MM-DD HH:MM:SS`, UTC) moved on by `ms`. */
  static plus(sql: string, ms: number): string {
    return String(sqlDateTime.from(new Date(sqlUtcToMs(sql) + ms)));
  }
}
