import { Injectable } from '@nestjs/common';
import { Clock } from '../../common/dates/clock';
import { AppConfig } from '../../config/app-config';
import { formatSqlDateTime, sqlUtcToMs } from '../../database/datetime.transformer';
import { DatabaseContext } from '../../database/database-context';
import { WriteTransactions } from '../../database/write-transactions';
import { retryDelayMs } from './retry-schedule';
import { typeOf } from './event-types';
import { WebhookDeliveryEntity } from './webhook-delivery.entity';
import { WebhookEndpointEntity } from './webhook-endpoint.entity';
import { WebhookPayloads } from './webhook-payloads';
import { WebhookSender, type SendResult } from './webhook-sender';
import { signDelivery, WEBHOOK_HEADERS } from './webhook-signature';

export type AttemptOutcome = 'delivered' | 'retry' | 'failed' | 'unsubscribed' | 'skipped';

/** A delivery due for an attempt, and the endpoint it goes to. */
export interface DueDelivery {
  id: string;
  endpointId: number;
}

/**
 * Sends deliveries: finds the due ones, claims one with a lease (a worker that dies mid-delivery leaves
 * it to expire, and the delivery is sent again with the same id), POSTs it signed, and records the
 * outcome: delivered; retried later with a growing, jittered delay; failed after `WEBHOOKS_RETRY_HOURS`
 * (which disables the endpoint, with the reason); or, on 410 Gone, the endpoint unsubscribed.
 */
@Injectable()
export class WebhookDeliverer {
  constructor(
    private readonly db: DatabaseContext,
    private readonly transactions: WriteTransactions,
    private readonly clock: Clock,
    private readonly config: AppConfig,
    private readonly payloads: WebhookPayloads,
    private readonly sender: WebhookSender,
  ) {}

  /**
   * Due deliveries of active endpoints, oldest change first; only the first pending delivery of each
   * endpoint and record, so a record's changes reach the receiver in order even across retries.
   */
  async due(limit: number): Promise<DueDelivery[]> {
    const now = this.clock.nowSqlUtc();
    const rows = await this.db.manager
      .createQueryBuilder(WebhookDeliveryEntity, 'd')
      .innerJoin(WebhookEndpointEntity, 'e', "e.id = d.endpointId AND e.status = 'active'")
      .select('d.id', 'id')
      .addSelect('d.endpointId', 'endpoint_id')
      .where("d.status = 'pending'")
      .andWhere('d.nextAttemptUtc <= :now', { now })
      .andWhere('(d.leaseUntilUtc IS NULL OR d.leaseUntilUtc < :now)', { now })
      .andWhere(
        `NOT EXISTS (SELECT 1 FROM webhook_deliveries p WHERE p.endpoint_id = d.endpoint_id
          AND p.resource = d.resource AND p.resource_id = d.resource_id AND p.status = 'pending'
          AND (p.seq < d.seq OR (p.seq = d.seq AND p.position < d.position)))`,
      )
      .orderBy('d.seq', 'ASC')
      .addOrderBy('d.position', 'ASC')
      .limit(limit)
      .getRawMany<{ id: string; endpoint_id: number | string }>();
    return rows.map((r) => ({ id: r.id, endpointId: Number(r.endpoint_id) }));
  }

  /** One attempt of one delivery, if this worker wins its lease. */
  async attempt(id: string): Promise<AttemptOutcome> {
    const now = this.clock.now();
    const nowSql = formatSqlDateTime(now);
    // Every write in a transaction of its own: on SQLite a bare statement would join whatever write holds
    // the shared connection.
    const claimed = await this.transactions.run(
      () =>
        this.db.manager
          .createQueryBuilder()
          .update(WebhookDeliveryEntity)
          .set({ leaseUntilUtc: formatSqlDateTime(new Date(now.getTime() + this.config.webhooks.leaseMs)) })
          .where('id = :id', { id })
          .andWhere("status = 'pending'")
          .andWhere('(lease_until_utc IS NULL OR lease_until_utc < :now)', { now: nowSql })
          .execute(),
      { content: false },
    );
    if (!claimed.affected) return 'skipped';
    const delivery = await this.db.manager.findOneBy(WebhookDeliveryEntity, { id });
    const endpoint = delivery && (await this.db.manager.findOneBy(WebhookEndpointEntity, { id: delivery.endpointId }));
    if (!delivery || !endpoint || endpoint.status !== 'active') {
      await this.transactions.run(
        () => this.db.manager.update(WebhookDeliveryEntity, { id }, { leaseUntilUtc: null }),
        {
          content: false,
        },
      );
      return 'skipped';
    }
    const body = await this.payloads.bodyOf(delivery);
    const timestamp = Math.floor(this.clock.now().getTime() / 1000);
    const result = await this.sender.send(
      endpoint.url,
      {
        [WEBHOOK_HEADERS.id]: delivery.id,
        [WEBHOOK_HEADERS.timestamp]: String(timestamp),
        [WEBHOOK_HEADERS.signature]: signDelivery(endpoint.secret, timestamp, body),
        [WEBHOOK_HEADERS.type]: typeOf(delivery.resource, delivery.action),
      },
      body,
    );
    return this.record(delivery, endpoint, result);
  }

  private record(delivery: WebhookDeliveryEntity, endpoint: WebhookEndpointEntity, result: SendResult) {
    return this.transactions.run(
      async (): Promise<AttemptOutcome> => {
        const manager = this.db.manager;
        const now = this.clock.now();
        const nowSql = formatSqlDateTime(now);
        const attempts = delivery.attempts + 1;
        const answered = { attempts, lastStatus: result.status, leaseUntilUtc: null };
        if (result.status !== null && result.status >= 200 && result.status < 300) {
          await manager.update(
            WebhookDeliveryEntity,
            { id: delivery.id },
            { ...answered, status: 'delivered', lastError: null, deliveredUtc: nowSql },
          );
          return 'delivered';
        }
        const error = (result.error ?? `HTTP ${result.status}`).slice(0, 500);
        if (result.status === 410) {
          await manager.update(
            WebhookDeliveryEntity,
            { id: delivery.id },
            { ...answered, status: 'failed', lastError: error },
          );
          await this.disable(endpoint.id, 'The receiver answered 410 Gone: unsubscribed.', nowSql);
          return 'unsubscribed';
        }
        const delay = retryDelayMs(attempts, this.config.webhooks.retryBaseMs);
        const next = now.getTime() + delay;
        if (next - sqlUtcToMs(delivery.createdUtc) > this.config.webhooks.retryWindowMs) {
          await manager.update(
            WebhookDeliveryEntity,
            { id: delivery.id },
            { ...answered, status: 'failed', lastError: error },
          );
          const hours = this.config.webhooks.retryWindowMs / 3_600_000;
          await this.disable(
            endpoint.id,
            `Delivery ${delivery.id} failed for ${hours} h; last error: ${error}`,
            nowSql,
          );
          return 'failed';
        }
        await manager.update(
          WebhookDeliveryEntity,
          { id: delivery.id },
          { ...answered, lastError: error, nextAttemptUtc: formatSqlDateTime(new Date(next)) },
        );
        return 'retry';
      },
      { content: false },
    );
  }

  private async disable(endpointId: number, reason: string, nowSql: string): Promise<void> {
    await this.db.manager.update(
      WebhookEndpointEntity,
      { id: endpointId },
      { status: 'disabled', disabledReason: reason.slice(0, 500), modifiedUtc: nowSql },
    );
  }
}
