import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import { bigintNumber, DateTimeColumn } from '../datetime.transformer';
import type { ChangeAction } from './recorded-change';

/**
 * The change log (transactional outbox): one row per resource a committed write changed. `seq` is the
 * write's `write_sequence` value, so rows appear in commit order (see `ChangeLogWriter`); `position`
 * orders the rows of one write. The change feed and webhook deliveries read from here only.
 */
@Entity('change_log')
@Index('IDX_change_log_changed', ['changedUtc'])
export class ChangeLogEntity {
  @PrimaryColumn({ type: 'bigint', transformer: bigintNumber })
  seq!: number;

  @PrimaryColumn({ type: 'integer' })
  position!: number;

  @Column({ type: 'varchar', length: 32 })
  resource!: string;

  @Column({ name: 'resource_id', type: 'integer' })
  resourceId!: number;

  @Column({ type: 'varchar', length: 16 })
  action!: ChangeAction;

  @Column({ name: 'public_before', type: 'boolean' })
  publicBefore!: boolean;

  @Column({ name: 'public_after', type: 'boolean' })
  publicAfter!: boolean;

  @Column({ name: 'author_id', type: 'integer', nullable: true })
  authorId!: number | null;

  @DateTimeColumn('changed_utc')
  changedUtc!: string;
}
