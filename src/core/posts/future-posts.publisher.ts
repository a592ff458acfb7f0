import { Injectable, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { Clock } from '../../common/dates/clock';
import { ListTotalsCache } from '../../common/pagination/list-totals.cache';
import { AppConfig } from '../../config/app-config';
import { TermRelationshipsService } from '../terms/term-relationships.service';
import { PostEntity } from './post.entity';

/**
 * Flips `future` posts whose date has come to `publish` and recounts their terms. Reads already treat
 * such posts as published at their date (see `whereStatusIn`); this keeps the stored status and the
 * term counts in step. Safe on several instances at once: the update only touches rows still `future`
 * and counts are recomputed, not incremented.
 */
@Injectable()
export class FuturePostsPublisher implements OnApplicationBootstrap, OnApplicationShutdown {
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly dataSource: DataSource,
    private readonly clock: Clock,
    private readonly config: AppConfig,
    private readonly relationships: TermRelationshipsService,
    private readonly totals: ListTotalsCache,
  ) {}

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => {
      this.publishDue().catch(() => undefined);
    }, this.config.futurePostsIntervalSeconds * 1000);
    this.timer.unref();
  }

  onApplicationShutdown(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  /** Publishes what is due; returns the ids it published. */
  async publishDue(): Promise<number[]> {
    const now = this.clock.nowSqlUtc();
    const published = await this.dataSource.transaction(async (manager) => {
      const due = await manager
        .createQueryBuilder(PostEntity, 'p')
        .select('p.id', 'id')
        .where("p.status = 'future'")
        .andWhere('p.dateUtc <= :now', { now })
        .orderBy('p.id', 'ASC')
        .limit(500)
        .getRawMany<{ id: number }>();
      const ids = due.map((r) => Number(r.id));
      if (ids.length === 0) return ids;
      await manager
        .createQueryBuilder()
        .update(PostEntity)
        .set({ status: 'publish' })
        .where('id IN (:...ids)', { ids })
        .andWhere("status = 'future'")
        .execute();
      await this.relationships.postStatusChanged(manager, ids);
      return ids;
    });
    if (published.length > 0) this.totals.clear();
    return published;
  }
}
