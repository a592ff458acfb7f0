import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
import { DateTimeColumn } from '../../database/datetime.transformer';

/** Which record here an imported record became (issue 37): matched by source and source id on every import. */
@Entity('imported_records')
export class ImportedRecordEntity {
  @PrimaryGeneratedColumn()
  id!: number;

  /** The feed or site: `ical:<url or file>`, `tec:<site url>`. */
  @Column({ type: 'varchar', length: 191 })
  source!: string;

  /** The record there: an iCalendar UID (`UID#RECURRENCE-ID` for an exception), a TEC id. */
  @Column({ name: 'source_id', type: 'varchar', length: 191 })
  sourceId!: string;

  /** The post here; null once an editor deleted it (its source record is then left out, as ignored). */
  @Column({ name: 'post_id', type: 'integer', nullable: true })
  postId!: number | null;

  /** What the source said the last time it was imported: unchanged records are skipped. */
  @Column({ type: 'varchar', length: 64 })
  hash!: string;

  @DateTimeColumn('imported_utc')
  importedUtc!: string;
}
