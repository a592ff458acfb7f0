import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
import { DateTimeColumn } from '../../../database/datetime.transformer';

export type ImportKind = 'ical' | 'tec';
/**
 * What a run does with a record edited here since it was last imported: `source_wins` overwrites it with
 * what the source says; `keep_local_edits` leaves it as edited (and notes it in the run's report).
 */
export type OverwriteRule = 'source_wins' | 'keep_local_edits';

/** An iCalendar feed or TEC site an administrator registered, refreshed on its schedule (issue 37). */
@Entity('import_subscriptions')
export class ImportSubscriptionEntity {
  @PrimaryGeneratedColumn({ type: 'integer' })
  id!: number;

  @Column({ type: 'varchar', length: 8 })
  kind!: ImportKind;

  @Column({ type: 'varchar', length: 2048 })
  url!: string;

  @Column({ type: 'varchar', length: 200, default: '' })
  description!: string;

  /** A TEC site's user. */
  @Column({ name: 'source_user', type: 'varchar', length: 191, nullable: true })
  sourceUser!: string | null;

  /** That user's application password, sealed with `CREDENTIALS_KEY` (`credential-seal.ts`); never shown. */
  @Column({ name: 'source_password', type: 'varchar', length: 1024, nullable: true })
  sourcePassword!: string | null;

  /** JSON list of category names every imported event gets (the option `categories`). */
  @Column({ type: 'text' })
  categories!: string;

  /** JSON: the other options of `ImportOptionsDto` (status, window, limit, deletions, ignore rules). */
  @Column({ type: 'text', nullable: true })
  options!: string | null;

  @Column({ name: 'interval_minutes', type: 'integer' })
  intervalMinutes!: number;

  @Column({ type: 'varchar', length: 16 })
  overwrite!: OverwriteRule;

  @Column({ type: 'boolean', default: true })
  enabled!: boolean;

  /** Who the records are written as: the administrator who registered it. */
  @Column({ name: 'author_id', type: 'integer', nullable: true })
  authorId!: number | null;

  /** The last answer's validators, for a conditional GET (iCalendar). */
  @Column({ type: 'varchar', length: 255, nullable: true })
  etag!: string | null;

  @Column({ name: 'last_modified', type: 'varchar', length: 64, nullable: true })
  lastModified!: string | null;

  /** Runs in a row that failed as a whole (the source unreadable, a budget, a crash); a run that reads it resets it. */
  @Column({ name: 'failed_runs', type: 'integer', default: 0 })
  failedRuns!: number;

  /**
   * Why the scheduler no longer runs it (`IMPORTS_SUSPEND_AFTER` failures in a row), or null. A manual run
   * that reads the source, or a PATCH with `enabled: true`, lifts it.
   */
  @Column({ name: 'suspended_reason', type: 'varchar', length: 500, nullable: true })
  suspendedReason!: string | null;

  @DateTimeColumn('suspended_utc', { nullable: true })
  suspendedUtc!: string | null;

  @DateTimeColumn('next_run_utc')
  nextRunUtc!: string;

  @DateTimeColumn('created_utc')
  createdUtc!: string;

  @DateTimeColumn('modified_utc')
  modifiedUtc!: string;
}
