import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { Clock } from '../../common/dates/clock';
import { mayLearnOf } from '../../core/changes/change-visibility';
import { ChangeLogEntity } from '../../database/changes/change-log.entity';
import { committedSequence } from '../../database/changes/committed-sequence';
import { DatabaseContext } from '../../database/database-context';
import { WriteTransactions } from '../../database/write-transactions';
import { subscribes, typeOf } from './event-types';
import { WebhookDeliveryEntity } from './webhook-delivery.entity';
import { WebhookEndpointEntity } from './webhook-endpoint.entity';

const BATCH = 500;
/** Beyond any row of a write. */
const LAST_POSITION = 999_999_999;

/**
 * Turns the change log into deliveries: reads the rows after its cursor (`webhook_dispatch`), writes one
 * delivery per row and subscribed active endpoint, and moves the cursor, all in one transaction. The
 * cursor row's lock admits one dispatcher at a time across instances. Only rows up to the committed
 * write sequence are read, and the log commits in sequence order, so no change is skipped or sent twice.
 */
@Injectable()
export class WebhookDispatcher {
  constructor(
    private readonly db: DatabaseContext,
    private readonly transactions: WriteTransactions,
    private readonly clock: Clock,
  ) {}

  /** Dispatches one batch; returns the number of log rows read (a full batch: call again). */
  async dispatch(): Promise<number> {
    // Most rounds find nothing new: a read, no write transaction.
    if (!(await this.behind())) return 0;
    return this.transactions.run(
      async () => {
        const manager = this.db.manager;
        await manager
          .createQueryBuilder()
          .update('webhook_dispatch')
          .set({ seq: () => 'seq' })
          .where('id = 1')
          .execute();
        const cursor = await manager
          .createQueryBuilder()
          .select(['d.seq AS seq', 'd.position AS position'])
          .from('webhook_dispatch', 'd')
          .where('d.id = 1')
          .getRawOne<{ seq: number | string; position: number | string }>();
        const head = (await committedSequence(manager)).value;
        const rows: ChangeLogEntity[] = await manager
          .createQueryBuilder(ChangeLogEntity, 'c')
          .where('(c.seq > :seq OR (c.seq = :seq AND c.position > :position))', {
            seq: Number(cursor?.seq ?? 0),
            position: Number(cursor?.position ?? 0),
          })
          .andWhere('c.seq <= :head', { head })
          .orderBy('c.seq', 'ASC')
          .addOrderBy('c.position', 'ASC')
          .limit(BATCH)
          .getMany();
        // Every row up to the head is committed: with less than a batch, the cursor may move to the head
        // itself (writes that logged nothing would otherwise keep the next round looking).
        const end = rows.length < BATCH ? { seq: head, position: LAST_POSITION } : rows[rows.length - 1];
        if (rows.length === 0) {
          await this.moveCursor(end);
          return 0;
        }
        const endpoints = await manager.find(WebhookEndpointEntity, { where: { status: 'active' } });
        const subscriptions = endpoints.map((e) => ({ endpoint: e, types: JSON.parse(e.eventTypes) as string[] }));
        const now = this.clock.nowSqlUtc();
        const deliveries: Partial<WebhookDeliveryEntity>[] = [];
        for (const row of rows) {
          // What anonymous callers may not learn of (drafts), receivers do not either.
          if (!mayLearnOf(null, row)) continue;
          const type = typeOf(row.resource, row.action);
          for (const { endpoint, types } of subscriptions) {
            if (row.seq <= endpoint.sinceSeq || !subscribes(types, type)) continue;
            deliveries.push({
              id: randomUUID(),
              endpointId: endpoint.id,
              seq: row.seq,
              position: row.position,
              resource: row.resource,
              resourceId: row.resourceId,
              action: row.action,
              status: 'pending',
              attempts: 0,
              nextAttemptUtc: now,
              leaseUntilUtc: null,
              lastStatus: null,
              lastError: null,
              changedUtc: row.changedUtc,
              createdUtc: now,
              deliveredUtc: null,
            });
          }
        }
        for (let i = 0; i < deliveries.length; i += 200) {
          await this.db.insertOnly(WebhookDeliveryEntity, deliveries.slice(i, i + 200));
        }
        await this.moveCursor(end);
        return rows.length;
      },
      { content: false },
    );
  }

  private async moveCursor(to: { seq: number; position: number }): Promise<void> {
    await this.db.manager
      .createQueryBuilder()
      .update('webhook_dispatch')
      .set({ seq: to.seq, position: to.position })
      .where('id = 1')
      .execute();
  }

  /** Whether writes committed after the cursor (read outside any transaction). */
  private async behind(): Promise<boolean> {
    const row = await this.db.manager
      .createQueryBuilder()
      .select(['w.value AS head', 'd.seq AS seq'])
      .from('write_sequence', 'w')
      .innerJoin('webhook_dispatch', 'd', 'd.id = 1')
      .where('w.id = 1')
      .getRawOne<{ head: number | string; seq: number | string }>();
    return Number(row?.head ?? 0) > Number(row?.seq ?? 0);
  }
}
