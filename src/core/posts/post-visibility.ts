import { can, type AuthUser } from '../../auth/auth-user';
import { postPolicy } from '../../auth/post-policy';
import type { PostStatus } from './post-status';

/** A WHERE fragment with its bound parameters (TypeORM's `:name` / `:...name` syntax). */
export interface SqlCondition {
  sql: string;
  params: Record<string, unknown>;
}

/** Which records a list shows a caller (behaviour.md §7, and §8 for venues and organizers). */
export interface ListScope {
  statuses: PostStatus[];
  /** Non-public rows are limited to this author (authors and contributors see their own only). */
  ownerId?: number;
}

let parameterCounter = 0;
const nextSuffix = (): number => (parameterCounter = (parameterCounter + 1) % 1_000_000);

/**
 * The SQL twin of `isInScope` for posts aliased `alias` (column names, so it also works inside raw
 * subqueries), judged as of `nowUtc`: `publish` includes `future` posts whose date has come and
 * `future` excludes them, so a scheduled post becomes visible exactly at its date even before the
 * publisher has flipped its status. Non-public statuses are limited to `scope.ownerId` when set.
 */
export function scopeCondition(alias: string, scope: ListScope, nowUtc: string): SqlCondition {
  const n = nextSuffix();
  const params: Record<string, unknown> = { [`scopeNow${n}`]: nowUtc };
  const owner = scope.ownerId === undefined ? '' : ` AND ${alias}.author_id = :scopeOwner${n}`;
  if (scope.ownerId !== undefined) params[`scopeOwner${n}`] = scope.ownerId;
  const parts: string[] = [];
  if (scope.statuses.includes('publish')) {
    parts.push(`${alias}.status = 'publish'`, `(${alias}.status = 'future' AND ${alias}.date_utc <= :scopeNow${n})`);
  }
  if (scope.statuses.includes('future')) {
    parts.push(`(${alias}.status = 'future' AND ${alias}.date_utc > :scopeNow${n}${owner})`);
  }
  const others = scope.statuses.filter((s) => s !== 'publish' && s !== 'future');
  if (others.length > 0) {
    parts.push(`(${alias}.status IN (:...scopeOthers${n})${owner})`);
    params[`scopeOthers${n}`] = others;
  }
  return { sql: parts.length > 0 ? `(${parts.join(' OR ')})` : '1 = 0', params };
}

/** What the content rule needs of a post. */
export interface ContentSubject {
  authorId: number | null;
  status: PostStatus;
  passwordHash: string | null;
}

/**
 * Whether the caller may see a post's protected content (description, links, flags) without giving its
 * password: posts without one, and posts the caller may edit. Everything that could reveal protected
 * content (search, link filters, the lists of a post's terms or venues) follows this rule.
 */
export function contentVisible(user: AuthUser | null, post: ContentSubject): boolean {
  return post.passwordHash === null || postPolicy.canEdit(user, post);
}

/** The SQL twin of {@link contentVisible} for public and own posts (what lists show). */
export function contentVisibleCondition(user: AuthUser | null, alias: string): SqlCondition {
  if (can(user, 'edit_others_posts')) return { sql: '1 = 1', params: {} };
  if (user && can(user, 'edit_posts')) {
    const n = nextSuffix();
    const editable = can(user, 'edit_published_posts') ? '' : ` AND ${alias}.status NOT IN ('publish', 'future')`;
    return {
      sql: `(${alias}.password_hash IS NULL OR (${alias}.author_id = :contentOwner${n}${editable}))`,
      params: { [`contentOwner${n}`]: user.id },
    };
  }
  return { sql: `${alias}.password_hash IS NULL`, params: {} };
}
