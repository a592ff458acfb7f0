import { Column, Entity, PrimaryColumn } from 'typeorm';

/** Links an event to its venue(s); written by the events module through VenuesService. */
@Entity('event_venues')
export class EventVenueEntity {
  @PrimaryColumn({ name: 'event_id', type: 'integer' })
  eventId!: number;

  @PrimaryColumn({ name: 'venue_id', type: 'integer' })
  venueId!: number;

  @Column({ name: 'sort_order', type: 'integer', default: 0 })
  sortOrder!: number;
}
