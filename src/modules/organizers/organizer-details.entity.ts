import { Column, Entity, PrimaryColumn } from 'typeorm';

/** The organizer's own columns, beside its row in `posts`. */
@Entity('organizer_details')
export class OrganizerDetailsEntity {
  @PrimaryColumn({ name: 'post_id', type: 'integer' })
  postId!: number;

  @Column({ type: 'varchar', length: 50, default: '' })
  phone!: string;

  @Column({ type: 'varchar', length: 2048, default: '' })
  website!: string;

  @Column({ type: 'varchar', length: 100, default: '' })
  email!: string;
}
