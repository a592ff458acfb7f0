import { Column, Entity, PrimaryColumn } from 'typeorm';
import { bigintNumber, DateTimeColumn } from '../../database/datetime.transformer';

export type WebhookDeliveryStatus = 'pending' | 'delivered' | 'failed' | 'cancelled';

/**
 * One change for one endpoint. Its id is the delivery id the receiver sees (`X-Cal-Webhook-Id`) and
 * de-duplicates by; every retry sends the same id. `lease_until_utc` is held while a worker sends it:
 * a worker that dies mid-delivery leaves a lease that runs out, and another worker sends it again.
 */
@Entity('webhook_deliveries')
export class WebhookDeliveryEntity {
  @PrimaryColumn({ type: 'varchar', length: 36 })
  id!: string;

  @Column({ name: 'endpoint_id', type: 'integer' })
  endpointId!: number;

  @Column({ type: 'bigint', transformer: bigintNumber })
  seq!: number;

  @Column({ type: 'integer' })
  position!: number;

  @Column({ type: 'varchar', length: 32 })
  resource!: string;

  @Column({ name: 'resource_id', type: 'integer' })
  resourceId!: number;

  @Column({ type: 'varchar', length: 16 })
  action!: string;

  @Column({ type: 'varchar', length: 16 })
  status!: WebhookDeliveryStatus;

  @Column({ type: 'integer', default: 0 })
  attempts!: number;

  @DateTimeColumn('next_attempt_utc')
  nextAttemptUtc!: string;

  @DateTimeColumn('lease_until_utc', { nullable: true })
  leaseUntilUtc!: string | null;

  @Column({ name: 'last_status', type: 'integer', nullable: true })
  lastStatus!: number | null;

  @Column({ name: 'last_error', type: 'varchar', length: 500, nullable: true })
  lastError!: string | null;

  @DateTimeColumn('changed_utc')
  changedUtc!: string;

  @DateTimeColumn('created_utc')
  createdUtc!: string;

  @DateTimeColumn('delivered_utc', { nullable: true })
  deliveredUtc!: string | null;
}
