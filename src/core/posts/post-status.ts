/** Post statuses and the rules of behaviour.md §4, as pure functions. */

export const POST_STATUSES = ['publish', 'future', 'draft', 'pending', 'private', 'trash'] as const;
export type PostStatus = (typeof POST_STATUSES)[number];

/** Statuses a client may ask for when writing; trash is reached only through DELETE. */
export const WRITABLE_STATUSES = ['publish', 'future', 'draft', 'pending', 'private'] as const;
export type WritableStatus = (typeof WRITABLE_STATUSES)[number];

export interface StatusDecisionInput {
  /** What the client asked for, if anything. */
  requested?: WritableStatus;
  /** The stored status on update; undefined on create. */
  current?: PostStatus;
  /** Whether the writer may publish (authors and up); contributors may not. */
  canPublish: boolean;
  /** Publication date in UTC, `YYYY-MM-DD HH:MM:SS`. */
  dateUtc: string;
  /** Now in UTC, same format. */
  nowUtc: string;
}

/**
 * The status to store. Writers who may not publish get `pending` when they ask for `publish`/`future`
 * (or keep `pending`), otherwise `draft`. Publishers get what they ask for, `publish` by default; a
 * publish dated in the future is stored as `future`, a `future` dated in the past as `publish`.
 */
export function decideStatus(input: StatusDecisionInput): PostStatus {
  const { requested, current, canPublish, dateUtc, nowUtc } = input;
  if (!canPublish) {
    const wanted = requested ?? current;
    if (wanted === 'publish' || wanted === 'future' || wanted === 'pending') return 'pending';
    return 'draft';
  }
  const wanted: PostStatus = requested ?? (current && current !== 'trash' ? current : 'publish');
  if (wanted === 'publish' && dateUtc > nowUtc) return 'future';
  if (wanted === 'future' && dateUtc <= nowUtc) return 'publish';
  return wanted;
}

/** A `future` post whose date has come is published, whether or not the scheduler has run yet. */
export function effectiveStatus(status: PostStatus, dateUtc: string, nowUtc: string): PostStatus {
  return status === 'future' && dateUtc <= nowUtc ? 'publish' : status;
}

/** Visible to anyone, signed in or not. */
export function isPublic(status: PostStatus, dateUtc: string, nowUtc: string): boolean {
  return effectiveStatus(status, dateUtc, nowUtc) === 'publish';
}
