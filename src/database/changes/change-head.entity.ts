import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import { DateTimeColumn } from '../datetime.transformer';

/**
 * When each resource last changed, its own fields or what it embeds (an event whose venue was renamed):
 * `Last-Modified`, `If-Unmodified-Since` and `modified_after` read it. Kept for as long as the resource
 * exists, unlike the change log, which is pruned.
 */
@Entity('change_heads')
@Index('IDX_change_heads_changed', ['resource', 'changedUtc'])
export class ChangeHeadEntity {
  @PrimaryColumn({ type: 'varchar', length: 32 })
  resource!: string;

  @PrimaryColumn({ name: 'resource_id', type: 'integer' })
  resourceId!: number;

  @DateTimeColumn('changed_utc')
  changedUtc!: string;

  /** The write sequence number of that change: tells apart two changes within one second. */
  @Column({ type: 'integer', default: 0 })
  seq!: number;
}
