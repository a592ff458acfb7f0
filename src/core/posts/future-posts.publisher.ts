import { Injectable, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { AppConfig } from '../../config/app-config';
import { ContentVersion } from '../../database/content-version';
import { WriteTransactions } from '../../database/write-transactions';
import { TermRelationshipsService } from '../terms/term-relationships.service';
import { sqlDateTime } from '../../database/datetime.transformer';
import { PostEntity } from './post.entity';
import { PostTypeRegistry } from './post-type.registry';
import { DatabaseContext } from '../../database/database-context';
import { Leases } from '../../database/leases';
import { DatabaseClock } from '../../database/database-clock';
import { BackgroundTasks } from '../../common/background/background-tasks';

/** Its name in logs and metrics. */
export const FUTURE_POSTS_TASK = 'future-posts';

/**
 * Flips `future` posts whose date has come to `publish` and counts them on their terms. Reads already treat
 * such posts as published at their date (see `whereStatusIn`); this keeps the stored status and the
 * term counts in step. One instance at a time runs it (a lease, `runScheduled`); should two run anyway,
 * a row is flipped, and counted, only by the run that found it still `future`.
 *
 * It also tells `ContentVersion` when the next scheduled post falls due: from then until the flip,
 * reads change without a write, so caches stand aside.
 */
@Injectable()
export class FuturePostsPublisher implements OnApplicationBootstrap, OnApplicationShutdown {
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly db: DatabaseContext,
    private readonly transactions: WriteTransactions,
    private readonly databaseClock: DatabaseClock,
    private readonly config: AppConfig,
    private readonly relationships: TermRelationshipsService,
    private readonly postTypes: PostTypeRegistry,
    private readonly leases: Leases,
    private readonly tasks: BackgroundTasks,
    version: ContentVersion,
  ) {
    version.addHorizon(() => this.nextDue());
  }

  onApplicationBootstrap(): void {
    this.tasks.register(FUTURE_POSTS_TASK);
    this.timer = setInterval(() => void this.runRound(), this.config.futurePostsIntervalSeconds * 1000);
    this.timer.unref();
  }

  /** The timer's round, its failure logged and counted (BackgroundTasks); undefined when it failed. */
  runRound(): Promise<number[] | null | undefined> {
    return this.tasks.run(FUTURE_POSTS_TASK, () => this.runScheduled());
  }

  /**
   * One round: publishes only while this instance holds the publisher's lease, so of many
   * instances one publishes (the others would change nothing, but would race for the same rows). The
   * lease outlives two rounds; when its holder stops, another instance takes over. Null when another
   * instance holds it.
   */
  async runScheduled(): Promise<number[] | null> {
    const lease = this.config.futurePostsIntervalSeconds * 2000 + 5000;
    if (!(await this.leases.acquire('future-posts', lease))) return null;
    return this.publishDue();
  }

  onApplicationShutdown(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  /** Publishes what is due; returns the ids it published. */
  async publishDue(): Promise<number[]> {
    // The database's clock, as the lease's: an instance whose own clock runs fast must not publish early.
    const now = await this.databaseClock.nowSqlUtc();
    const next = await this.nextDue();
    // Nothing due: no transaction, so the content version (and every cached read) stays as it is.
    if (next === null || next > now) return [];
    return this.transactions.run(async () => {
      const due = await this.db.manager
        .createQueryBuilder(PostEntity, 'p')
        .select(['p.id AS id', 'p.type AS type', 'p.authorId AS authorId'])
        .where("p.status = 'future'")
        .andWhere('p.dateUtc <= :now', { now })
        .orderBy('p.id', 'ASC')
        .limit(500)
        .getRawMany<{ id: number; type: string; authorId: number | null }>();
      const ids: number[] = [];
      // One row at a time, so only the rows this run actually flipped change the counts: another
      // instance running the same sweep finds them no longer `future` and counts nothing twice.
      for (const { id, type, authorId } of due) {
        const result = await this.db.manager
          .createQueryBuilder()
          .update(PostEntity)
          .set({ status: 'publish' })
          .where('id = :id', { id: Number(id) })
          .andWhere("status = 'future'")
          .execute();
        if (!result.affected) continue;
        ids.push(Number(id));
        if (this.postTypes.has(type)) {
          this.db.recordChange({
            resource: this.postTypes.get(type).noun,
            resourceId: Number(id),
            action: 'status_changed',
            publicBefore: false,
            publicAfter: true,
            authorId: authorId === null ? null : Number(authorId),
          });
        }
      }
      const changes = ids.map((postId) => ({ postId, from: 'future' as const, to: 'publish' as const }));
      await this.relationships.postStatusChanged(changes);
      return ids;
    });
  }

  /** The date of the earliest post still `future`, due or not. */
  private async nextDue(): Promise<string | null> {
    const row = await this.db.manager
      .createQueryBuilder(PostEntity, 'p')
      .select('MIN(p.dateUtc)', 'next')
      .where("p.status = 'future'")
      .getRawOne<{ next: string | Date | null }>();
    return (sqlDateTime.from(row?.next ?? null) as string | null) ?? null;
  }
}
