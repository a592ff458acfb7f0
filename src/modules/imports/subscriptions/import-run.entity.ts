import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
import { DateTimeColumn } from '../../../database/datetime.transformer';

export type RunTrigger = 'schedule' | 'manual';
/**
 * `not_modified`: the source answered 304 to the conditional GET; nothing was read. `cancelled`: the
 * subscription was deleted or disabled while the run went on; what it wrote stays.
 */
export type RunStatus = 'running' | 'succeeded' | 'failed' | 'not_modified' | 'cancelled';

/** One run of a subscription: when, what it did, and its report (skipped, notes, failures). */
@Entity('import_runs')
export class ImportRunEntity {
  @PrimaryGeneratedColumn({ type: 'integer' })
  id!: number;

  @Column({ name: 'subscription_id', type: 'integer' })
  subscriptionId!: number;

  @Column({ name: 'trigger_kind', type: 'varchar', length: 10 })
  trigger!: RunTrigger;

  @Column({ type: 'varchar', length: 14 })
  status!: RunStatus;

  @DateTimeColumn('started_utc')
  startedUtc!: string;

  @DateTimeColumn('finished_utc', { nullable: true })
  finishedUtc!: string | null;

  @Column({ name: 'created_count', type: 'integer', default: 0 })
  created!: number;

  @Column({ name: 'updated_count', type: 'integer', default: 0 })
  updated!: number;

  @Column({ name: 'unchanged_count', type: 'integer', default: 0 })
  unchanged!: number;

  @Column({ name: 'trashed_count', type: 'integer', default: 0 })
  trashed!: number;

  /**
   * What the run read of its source, as `SourceDigest` gives it (`pages:sha256`), updated as it reads: the
   * run after a crash compares its own reading with it.
   */
  @Column({ name: 'source_digest', type: 'varchar', length: 80, nullable: true })
  sourceDigest!: string | null;

  /**
   * Its parse worker died or ran out of its budget, or its instance stopped under it (found by the next run),
   * or it was refused as such a run's source again: that source is not run again unchanged.
   */
  @Column({ type: 'boolean', default: false })
  crashed!: boolean;

  /** JSON: `{skipped, notes, failed}` of the summary. */
  @Column({ type: 'text' })
  report!: string;
}
