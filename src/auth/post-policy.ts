import type { PostStatus } from '../core/posts/post-status';
import { can, type AuthUser } from './auth-user';

/** What the policy needs of a post: who wrote it and where it stands. */
export interface PolicySubject {
  authorId: number | null;
  status: PostStatus;
  /** For a trashed post, the status it had before (unknown: treated as published). */
  trashedFrom?: PostStatus | null;
}

const isOwn = (user: AuthUser, post: PolicySubject): boolean => post.authorId !== null && post.authorId === user.id;
const wasPublished = (status: PostStatus | null | undefined): boolean =>
  status === 'publish' || status === 'future' || status === null || status === undefined;
/** Published or scheduled, or trashed from there: an own post that needs the `*_published_posts` right. */
const isPublished = (post: PolicySubject): boolean =>
  post.status === 'publish' || post.status === 'future' || (post.status === 'trash' && wasPublished(post.trashedFrom));

/**
 * The record-level rules of behaviour.md §3 for every post type family (events, venues, organizers), as
 * WordPress maps them (`map_meta_cap`): contributors write their own drafts and pending posts, authors
 * their own posts including published and private ones, editors and administrators anything. A trashed
 * post is judged by the status it had before the trash. Pure functions of the user and the record.
 */
export const postPolicy = {
  canCreate: (user: AuthUser | null): boolean => can(user, 'edit_posts'),

  canPublish: (user: AuthUser | null): boolean => can(user, 'publish_posts'),

  canEdit(user: AuthUser | null, post: PolicySubject): boolean {
    if (user === null) return false;
    if (!isOwn(user, post)) {
      if (!can(user, 'edit_others_posts')) return false;
      if (post.status === 'private') return can(user, 'edit_private_posts');
      return true;
    }
    if (isPublished(post)) return can(user, 'edit_published_posts');
    return can(user, 'edit_posts');
  },

  canDelete(user: AuthUser | null, post: PolicySubject): boolean {
    if (user === null) return false;
    if (!isOwn(user, post)) {
      if (!can(user, 'delete_others_posts')) return false;
      if (post.status === 'private') return can(user, 'delete_private_posts');
      return true;
    }
    if (isPublished(post)) return can(user, 'delete_published_posts');
    return can(user, 'delete_posts');
  },

  /** Deleting permanently instead of trashing: editors and up. */
  canForceDelete: (user: AuthUser | null): boolean => can(user, 'delete_others_posts'),

  /**
   * Reading a record that is not public (draft, pending, private, future, trash) needs the right to edit
   * it: editors all, authors and contributors their own.
   */
  canReadNonPublic(user: AuthUser | null, post: PolicySubject): boolean {
    if (user === null) return false;
    if (post.status === 'private' && can(user, 'read_private_posts')) return true;
    return isOwn(user, post) ? can(user, 'edit_posts') : can(user, 'edit_others_posts');
  },

  /** Whether list routes show this caller other people's non-public records. */
  seesAllStatuses: (user: AuthUser | null): boolean => can(user, 'edit_others_posts'),

  /** Categories and tags are written by editors and up. */
  canManageTerms: (user: AuthUser | null): boolean => can(user, 'manage_categories'),
};
