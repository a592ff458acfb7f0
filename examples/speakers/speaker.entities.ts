import { Column, Entity, PrimaryColumn } from 'typeorm';

/** The speaker's own columns, beside its row in `posts`. */
@Entity('speaker_details')
export class SpeakerDetailsEntity {
  @PrimaryColumn({ name: 'post_id', type: 'integer' })
  postId!: number;

  @Column({ type: 'varchar', length: 200, default: '' })
  affiliation!: string;

  @Column({ type: 'varchar', length: 2048, default: '' })
  website!: string;
}
