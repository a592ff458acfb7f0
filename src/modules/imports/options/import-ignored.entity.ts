import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
import { DateTimeColumn } from '../../../database/datetime.transformer';

/**
 * A record a source's runs do not import (issue 49), until an administrator clears it: one an ignore rule
 * matches, or one imported before and then trashed or deleted here by hand (a run does not bring it back).
 */
@Entity('import_ignored')
export class ImportIgnoredEntity {
  @PrimaryGeneratedColumn({ type: 'integer' })
  id!: number;

  /** The source as imports name it: `tec:<site>`, `ical:<url or file>`. */
  @Column({ type: 'varchar', length: 191 })
  source!: string;

  /** The record's id there, as the run's report names it (`event:52`, a UID). */
  @Column({ name: 'source_id', type: 'varchar', length: 191 })
  sourceId!: string;

  @Column({ type: 'varchar', length: 255, default: '' })
  title!: string;

  @Column({ type: 'varchar', length: 255 })
  reason!: string;

  @DateTimeColumn('ignored_utc')
  ignoredUtc!: string;
}
