import { Injectable } from '@nestjs/common';
import { Clock } from '../../common/dates/clock';
import { AppConfig } from '../../config/app-config';
import { formatSqlDateTime } from '../../database/datetime.transformer';
import { DatabaseContext } from '../../database/database-context';
import { WriteTransactions } from '../../database/write-transactions';
import { WebhookDeliveryEntity, type WebhookDeliveryStatus } from './webhook-delivery.entity';

const DAY_MS = 86_400_000;
const PRUNE_CHUNK = 1000;
const FINISHED: WebhookDeliveryStatus[] = ['delivered', 'failed', 'cancelled'];

/**
 * Deletes finished deliveries older than `WEBHOOKS_DELIVERY_RETENTION_DAYS`: their last attempt, their
 * delivery and their (re)creation all before the cutoff, so a delivery sent again lately stays. Pending
 * ones are never pruned. A thousand rows per statement, each in a short transaction of its own.
 */
@Injectable()
export class WebhookDeliveryJanitor {
  constructor(
    private readonly db: DatabaseContext,
    private readonly transactions: WriteTransactions,
    private readonly clock: Clock,
    private readonly config: AppConfig,
  ) {}

  /** Returns how many deliveries it deleted. */
  async prune(): Promise<number> {
    const cutoff = formatSqlDateTime(
      new Date(this.clock.now().getTime() - this.config.webhooks.deliveryRetentionDays * DAY_MS),
    );
    let deleted = 0;
    for (const status of FINISHED) {
      for (;;) {
        // A range of IDX_webhook_deliveries_due (status, next_attempt_utc): the oldest first.
        const rows = await this.db.manager
          .createQueryBuilder(WebhookDeliveryEntity, 'd')
          .select('d.id', 'id')
          .where('d.status = :status AND d.nextAttemptUtc < :cutoff AND d.createdUtc < :cutoff', { status, cutoff })
          .andWhere('(d.deliveredUtc IS NULL OR d.deliveredUtc < :cutoff)', { cutoff })
          .limit(PRUNE_CHUNK)
          .getRawMany<{ id: string }>();
        if (rows.length === 0) break;
        const ids = rows.map((r) => r.id);
        // In a transaction of its own: on SQLite a bare statement would join whatever write holds the connection.
        await this.transactions.run(
          async () => {
            await this.db.manager
              .createQueryBuilder()
              .delete()
              .from(WebhookDeliveryEntity)
              .where('id IN (:...ids)', { ids })
              .execute();
          },
          { content: false },
        );
        deleted += ids.length;
        if (ids.length < PRUNE_CHUNK) break;
      }
    }
    return deleted;
  }
}
