import { Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { DateTime } from 'luxon';
import { toAuthUser } from '../../../auth/auth-user';
import { BackgroundTasks } from '../../../common/background/background-tasks';
import { DatabaseClock } from '../../../database/database-clock';
import { Leases } from '../../../database/leases';
import { WriteTransactions } from '../../../database/write-transactions';
import { HORIZON_DAYS } from './series-expansion';
import { SeriesRepository } from './series.repository';
import { SeriesWrites } from './series-writes.service';

/** Its name in logs, metrics and the lease table. */
export const SERIES_HORIZON_TASK = 'series-horizon';
/** How often the horizon moves: a day's move is due once a day, so hourly keeps it at most an hour late. */
const INTERVAL_MS = 60 * 60 * 1000;
/**
 * Who writes the new occurrences: their post fields (author, status, password) are their model's as stored,
 * checked when the series was written, so the job only needs a user that the write path lets through.
 */
const ACTING = toAuthUser({ id: 0, login: SERIES_HORIZON_TASK, role: 'administrator' });
/** Series extended per round, each in its own transaction. */
const PER_ROUND = 200;

/**
 * The moving horizon (behaviour.md §11): an unbounded series (no COUNT, no UNTIL) has occurrences up to
 * `HORIZON_DAYS` ahead. Once a day has passed since a series was expanded, this makes the occurrences the
 * horizon has reached, like the series' latest occurrence not edited on its own. One instance at a time
 * (a lease); each series in its own transaction, under the series' lock, so a series edit and the
 * extension never interleave.
 */
@Injectable()
export class SeriesHorizon implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(SeriesHorizon.name);
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly transactions: WriteTransactions,
    private readonly series: SeriesRepository,
    private readonly writes: SeriesWrites,
    private readonly leases: Leases,
    private readonly clock: DatabaseClock,
    private readonly tasks: BackgroundTasks,
  ) {}

  onApplicationBootstrap(): void {
    this.tasks.register(SERIES_HORIZON_TASK);
    this.timer = setInterval(() => void this.runRound(), INTERVAL_MS);
    this.timer.unref();
  }

  onApplicationShutdown(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  runRound(): Promise<number | null | undefined> {
    return this.tasks.run(SERIES_HORIZON_TASK, async () => {
      if (!(await this.leases.acquire(SERIES_HORIZON_TASK, INTERVAL_MS * 2))) return null;
      return this.extendDue();
    });
  }

  /** Extends every series whose horizon is a day or more behind; returns how many occurrences it made. */
  async extendDue(nowUtc?: string): Promise<number> {
    const now = nowUtc ?? (await this.clock.nowSqlUtc());
    const dueBefore = DateTime.fromSQL(now, { zone: 'UTC' })
      .plus({ days: HORIZON_DAYS - 1 })
      .toFormat('yyyy-MM-dd HH:mm:ss');
    let made = 0;
    for (const id of await this.series.dueForHorizon(dueBefore, PER_ROUND)) {
      try {
        made += await this.transactions.run(async () => {
          const series = await this.series.lock(id);
          if (!series || series.horizonUtc === null || series.horizonUtc >= dueBefore) return 0;
          return this.writes.extend(series, ACTING, now);
        });
      } catch (error) {
        // One series that cannot grow (its rule reached the occurrence limit) must not stop the others.
        this.logger.warn(`series ${id} was not extended: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
    return made;
  }
}
