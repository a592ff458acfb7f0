import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
import { DateTimeColumn } from '../../database/datetime.transformer';
import type { PostStatus } from './post-status';

/**
 * The generic post row every post type shares (events, venues, organizers, attachments, …).
 * Type-specific columns live in a companion `<type>_details` table keyed by `post_id`.
 * Dates are `YYYY-MM-DD HH:MM:SS`: `*_local` in the site time zone, `*_utc` in UTC.
 */
@Entity('posts')
export class PostEntity {
  @PrimaryGeneratedColumn({ type: 'integer' })
  id!: number;

  @Column({ type: 'varchar', length: 20 })
  type!: string;

  @Column({ type: 'varchar', length: 200 })
  slug!: string;

  @Column({ type: 'varchar', length: 255, default: '' })
  title!: string;

  @Column({ type: 'text' })
  content!: string;

  @Column({ type: 'text' })
  excerpt!: string;

  @Column({ type: 'varchar', length: 20 })
  status!: PostStatus;

  @Column({ name: 'author_id', type: 'integer', nullable: true })
  authorId!: number | null;

  @Column({ name: 'parent_id', type: 'integer', nullable: true })
  parentId!: number | null;

  @Column({ name: 'password_hash', type: 'varchar', length: 255, nullable: true })
  passwordHash!: string | null;

  /** The status before the post went to the trash: who may still edit it there depends on it. */
  @Column({ name: 'trashed_from', type: 'varchar', length: 20, nullable: true })
  trashedFrom!: PostStatus | null;

  /** The attachment shown as the record's image. */
  @Column({ name: 'featured_image_id', type: 'integer', nullable: true })
  featuredImageId!: number | null;

  @Column({ name: 'menu_order', type: 'integer', default: 0 })
  menuOrder!: number;

  @DateTimeColumn('date_local')
  dateLocal!: string;

  @DateTimeColumn('date_utc')
  dateUtc!: string;

  @DateTimeColumn('modified_local')
  modifiedLocal!: string;

  @DateTimeColumn('modified_utc')
  modifiedUtc!: string;
}
