import { Column, Entity, PrimaryColumn } from 'typeorm';
import { DateTimeColumn } from '../../../database/datetime.transformer';

/**
 * A recurring event's series (behaviour.md §11): its id is its first occurrence's. The occurrences are
 * ordinary events whose details name the series; this row holds what makes new ones.
 */
@Entity('event_series')
export class EventSeriesEntity {
  @PrimaryColumn({ type: 'integer' })
  id!: number;

  /** The RFC 5545 lines as written (RRULE, RDATE, EXDATE), kept as JSON text. */
  @Column({ type: 'simple-json' })
  lines!: string[];

  @Column({ type: 'varchar', length: 64 })
  timezone!: string;

  /** The wall time the rule counts from (DTSTART), in `timezone`. */
  @DateTimeColumn('start_local')
  startLocal!: string;

  @Column({ name: 'all_day', type: 'boolean', default: false })
  allDay!: boolean;

  /**
   * What every occurrence the series makes later (the moving horizon) is written with: the write fields of
   * the series' creation and of its `scope=all` edits, links as ids, plus the wall-clock length.
   */
  @Column({ type: 'simple-json' })
  template!: SeriesTemplate;

  /** For a rule without COUNT or UNTIL, the instant up to which occurrences exist; null when the series ends. */
  @DateTimeColumn('horizon_utc', { nullable: true })
  horizonUtc!: string | null;
}

/** The write fields an occurrence is created with, and its length in wall-clock seconds. */
export interface SeriesTemplate {
  fields: Record<string, unknown>;
  lengthSeconds: number;
}
