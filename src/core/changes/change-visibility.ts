import { can, type AuthUser } from '../../auth/auth-user';

/** What a change-log row says about who could read the record around the change. */
export interface ChangeWitness {
  publicBefore: boolean;
  publicAfter: boolean;
  authorId: number | null;
}

/**
 * Whether a caller who cannot read the record now may learn that it changed (a tombstone): only if the
 * record was public before or after the change, or it is one the caller may read when not public
 * (editors: any; authors: their own). Otherwise the caller never saw it, and an anonymous client never
 * learns that a draft existed.
 */
export function mayLearnOf(user: AuthUser | null, witness: ChangeWitness): boolean {
  if (witness.publicBefore || witness.publicAfter) return true;
  if (can(user, 'edit_others_posts')) return true;
  return user !== null && can(user, 'edit_posts') && witness.authorId === user.id;
}
