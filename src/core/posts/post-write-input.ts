import type { WritableStatus } from './post-status';
import type { PostEntity } from './post.entity';

/** The shared fields of a post write, as a post-type service hands them over. */
export interface PostWriteInput {
  title?: string;
  content?: string;
  excerpt?: string;
  slug?: string;
  status?: WritableStatus;
  date?: string | number;
  dateUtc?: string | number;
  /** A user id; null (for writes that copy a post whose author was deleted) leaves it without one. */
  author?: number | null;
  /** Attachment id, image URL, or null to remove; undefined leaves it. */
  image?: number | string | null;
  /** Parent post id, or null to detach (checked by the post-type service). */
  parentId?: number | null;
  /** A new password (hashed here), or '' to remove it. */
  password?: string;
  /**
   * Instead of `password`: a hash taken from another post as it is (the occurrences of a series share their
   * first one's), so a write of many posts hashes once. Null removes the password.
   */
  passwordHash?: string | null;
}

export interface PostWriteResult {
  post: PostEntity;
  /** Whether the stored status changed; term counts must follow (the writer does it). */
  statusChanged: boolean;
}
