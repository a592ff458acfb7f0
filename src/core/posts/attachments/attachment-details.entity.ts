import { Column, Entity, PrimaryColumn } from 'typeorm';

/** Companion row of an `attachment` post: where the file lives. The server never fetches it. */
@Entity('attachment_details')
export class AttachmentDetailsEntity {
  @PrimaryColumn({ name: 'post_id', type: 'integer' })
  postId!: number;

  @Column({ type: 'varchar', length: 2048 })
  url!: string;

  @Column({ name: 'mime_type', type: 'varchar', length: 100, default: '' })
  mimeType!: string;
}
