import { Column, Entity, PrimaryColumn } from 'typeorm';

/** The venue's own columns, beside its row in `posts`. */
@Entity('venue_details')
export class VenueDetailsEntity {
  @PrimaryColumn({ name: 'post_id', type: 'integer' })
  postId!: number;

  @Column({ type: 'varchar', length: 255, default: '' })
  address!: string;

  @Column({ type: 'varchar', length: 100, default: '' })
  city!: string;

  @Column({ type: 'varchar', length: 100, default: '' })
  country!: string;

  @Column({ type: 'varchar', length: 100, default: '' })
  province!: string;

  @Column({ type: 'varchar', length: 100, default: '' })
  state!: string;

  @Column({ type: 'varchar', length: 20, default: '' })
  zip!: string;

  @Column({ type: 'varchar', length: 50, default: '' })
  phone!: string;

  /** As given; when empty, the object derives it from state or province. */
  @Column({ type: 'varchar', length: 100, default: '' })
  stateprovince!: string;

  @Column({ type: 'varchar', length: 2048, default: '' })
  website!: string;

  @Column({ name: 'show_map', type: 'boolean', nullable: true })
  showMap!: boolean | null;

  @Column({ name: 'show_map_link', type: 'boolean', nullable: true })
  showMapLink!: boolean | null;
}
