import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
import { bigintNumber, DateTimeColumn } from '../../database/datetime.transformer';

export type WebhookEndpointStatus = 'active' | 'disabled';

/** An endpoint an administrator registered, with the event types it wants (`event.created`, `venue.*`, `*`). */
@Entity('webhook_endpoints')
export class WebhookEndpointEntity {
  @PrimaryGeneratedColumn({ type: 'integer' })
  id!: number;

  @Column({ type: 'varchar', length: 2048 })
  url!: string;

  @Column({ type: 'varchar', length: 200, default: '' })
  description!: string;

  /** JSON list of event types. */
  @Column({ name: 'event_types', type: 'text' })
  eventTypes!: string;

  /** The HMAC key of the signatures; kept readable, since signing needs it. */
  @Column({ type: 'varchar', length: 200 })
  secret!: string;

  @Column({ type: 'varchar', length: 16 })
  status!: WebhookEndpointStatus;

  @Column({ name: 'disabled_reason', type: 'varchar', length: 500, nullable: true })
  disabledReason!: string | null;

  /** The write sequence when the endpoint was registered: older changes are not its to receive. */
  @Column({ name: 'since_seq', type: 'bigint', transformer: bigintNumber })
  sinceSeq!: number;

  @DateTimeColumn('created_utc')
  createdUtc!: string;

  @DateTimeColumn('modified_utc')
  modifiedUtc!: string;
}
