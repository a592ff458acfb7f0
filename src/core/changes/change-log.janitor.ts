import { Injectable, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { BackgroundTasks } from '../../common/background/background-tasks';
import { Clock } from '../../common/dates/clock';
import { AppConfig } from '../../config/app-config';
import { formatSqlDateTime } from '../../database/datetime.transformer';
import { DatabaseContext } from '../../database/database-context';
import { WriteTransactions } from '../../database/write-transactions';
import { ChangeLogEntity } from '../../database/changes/change-log.entity';

const HOUR_MS = 3_600_000;
/** Its name in logs and metrics. */
export const CHANGE_LOG_TASK = 'change-log-janitor';
const PRUNE_CHUNK = 1000;

/**
 * Prunes the change log to `CHANGE_LOG_RETENTION_DAYS`, whole writes at a time, and records how far it
 * went (`write_sequence.purged_through`): a sync token from before that answers 410. Hourly; several
 * instances pruning at once delete the same rows and agree on the mark.
 */
@Injectable()
export class ChangeLogJanitor implements OnApplicationBootstrap, OnApplicationShutdown {
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly db: DatabaseContext,
    private readonly transactions: WriteTransactions,
    private readonly clock: Clock,
    private readonly config: AppConfig,
    private readonly tasks: BackgroundTasks,
  ) {}

  onApplicationBootstrap(): void {
    this.tasks.register(CHANGE_LOG_TASK);
    this.timer = setInterval(() => void this.runRound(), HOUR_MS);
    this.timer.unref();
  }

  onApplicationShutdown(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  /** The timer's round, its failure logged and counted (BackgroundTasks); undefined when it failed. */
  runRound(): Promise<number | null | undefined> {
    return this.tasks.run(CHANGE_LOG_TASK, () => this.prune());
  }

  /** Deletes the rows older than the retention; returns the last pruned sequence value, or null for none. */
  async prune(): Promise<number | null> {
    const cutoff = formatSqlDateTime(
      new Date(this.clock.now().getTime() - this.config.changeLogRetentionDays * 24 * HOUR_MS),
    );
    const row = await this.db.manager
      .createQueryBuilder(ChangeLogEntity, 'c')
      .select('MAX(c.seq)', 'last')
      .where('c.changedUtc < :cutoff', { cutoff })
      .getRawOne<{ last: number | string | null }>();
    if (row?.last === null || row?.last === undefined) return null;
    const last = Number(row.last);
    // First the mark, so tokens from before it are refused before their rows go; in its own short
    // transaction, since every content write waits for the sequence row's lock.
    await this.transactions.run(
      async () => {
        await this.db.manager
          .createQueryBuilder()
          .update('write_sequence')
          .set({ purged_through: () => `CASE WHEN purged_through < ${last} THEN ${last} ELSE purged_through END` })
          .where('id = 1')
          .execute();
      },
      { content: false },
    );
    // Then the rows, a thousand writes' worth per statement, so no delete holds locks for long.
    for (;;) {
      const first = await this.db.manager
        .createQueryBuilder(ChangeLogEntity, 'c')
        .select('MIN(c.seq)', 'first')
        .getRawOne<{ first: number | string | null }>();
      if (first?.first === null || first?.first === undefined || Number(first.first) > last) break;
      const upTo = Math.min(last, Number(first.first) + PRUNE_CHUNK);
      // In a transaction of its own: on SQLite a bare statement would join whatever write holds the connection.
      await this.transactions.run(
        async () => {
          await this.db.manager
            .createQueryBuilder()
            .delete()
            .from(ChangeLogEntity)
            .where('seq <= :upTo', { upTo })
            .execute();
        },
        { content: false },
      );
    }
    return last;
  }
}
