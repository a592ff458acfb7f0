import { Column, Entity, PrimaryColumn } from 'typeorm';

/** Links an event to its organizers in the order given; written by the events module through OrganizersService. */
@Entity('event_organizers')
export class EventOrganizerEntity {
  @PrimaryColumn({ name: 'event_id', type: 'integer' })
  eventId!: number;

  @PrimaryColumn({ name: 'organizer_id', type: 'integer' })
  organizerId!: number;

  @Column({ name: 'sort_order', type: 'integer', default: 0 })
  sortOrder!: number;
}
