import { Column, Entity, PrimaryColumn } from 'typeorm';

/** One event's value of one stored field a module declared (`StoredEventFieldModule`). */
@Entity('event_field_values')
export class EventFieldValueEntity {
  @PrimaryColumn({ name: 'post_id', type: 'integer' })
  postId!: number;

  @PrimaryColumn({ type: 'varchar', length: 64 })
  name!: string;

  @Column({ name: 'int_value', type: 'integer', nullable: true })
  intValue!: number | null;

  @Column({ name: 'text_value', type: 'varchar', length: 2048, nullable: true })
  textValue!: string | null;
}
