import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

/** A kind of ticket for an event (`event_tickets`): its own ids, gone with the event. */
@Entity('event_tickets')
export class TicketEntity {
  @PrimaryGeneratedColumn({ type: 'integer' })
  id!: number;

  @Column({ name: 'event_id', type: 'integer' })
  eventId!: number;

  @Column({ type: 'varchar', length: 200 })
  name!: string;

  @Column({ type: 'varchar', length: 20, default: '' })
  price = '';

  @Column({ type: 'integer', nullable: true })
  capacity: number | null = null;

  /** When sales open and close (UTC `YYYY-MM-DD HH:mm:ss`); null: always open on that side. */
  @Column({ name: 'sale_start_utc', type: 'varchar', length: 19, nullable: true })
  saleStartUtc: string | null = null;

  @Column({ name: 'sale_end_utc', type: 'varchar', length: 19, nullable: true })
  saleEndUtc: string | null = null;
}
