import { Column, Entity, PrimaryColumn } from 'typeorm';
import { DateTimeColumn } from '../../../database/datetime.transformer';
import type { CurrencyPosition } from './event-cost';

/**
 * The event's own columns. Start and end are kept both as wall-clock time in the event's zone and in
 * UTC, so list filters compare plain columns and never compute time zones in SQL.
 */
@Entity('event_details')
export class EventDetailsEntity {
  @PrimaryColumn({ name: 'post_id', type: 'integer' })
  postId!: number;

  @DateTimeColumn('start_local')
  startLocal!: string;

  @DateTimeColumn('end_local')
  endLocal!: string;

  @DateTimeColumn('start_utc')
  startUtc!: string;

  @DateTimeColumn('end_utc')
  endUtc!: string;

  @Column({ type: 'varchar', length: 64 })
  timezone!: string;

  @Column({ name: 'all_day', type: 'boolean', default: false })
  allDay!: boolean;

  /** As the client wrote it; formatted and split into values when read. */
  @Column({ type: 'text' })
  cost!: string;

  @Column({ name: 'currency_symbol', type: 'varchar', length: 10, default: '' })
  currencySymbol!: string;

  @Column({ name: 'currency_code', type: 'varchar', length: 3, default: '' })
  currencyCode!: string;

  @Column({ name: 'currency_position', type: 'varchar', length: 7, default: 'prefix' })
  currencyPosition!: CurrencyPosition;

  @Column({ type: 'varchar', length: 2048, default: '' })
  website!: string;

  @Column({ name: 'show_map', type: 'boolean', default: true })
  showMap!: boolean;

  @Column({ name: 'show_map_link', type: 'boolean', default: true })
  showMapLink!: boolean;

  @Column({ name: 'hide_from_listings', type: 'boolean', default: false })
  hideFromListings!: boolean;

  @Column({ type: 'boolean', default: false })
  sticky!: boolean;

  @Column({ type: 'boolean', default: false })
  featured!: boolean;

  /** The series this event is an occurrence of (behaviour.md §11); null for a single event. */
  @Column({ name: 'series_id', type: 'integer', nullable: true })
  seriesId!: number | null;

  /** The wall time the series' rule gave this occurrence (its RECURRENCE-ID); null for a single event. */
  @DateTimeColumn('occurrence_local', { nullable: true })
  occurrenceLocal!: string | null;

  /** Edited on its own (`scope=this`): edits of the whole series leave it as it is. */
  @Column({ type: 'boolean', default: false })
  detached!: boolean;
}
