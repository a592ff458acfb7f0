import { Brackets, type ObjectLiteral, type SelectQueryBuilder } from 'typeorm';
import { can, type AuthUser } from '../../auth/auth-user';
import { RequestValidationError } from '../../common/validation/request-validation.error';
import { reason } from '../../common/validation/validation-messages';
import { LIKE_ESCAPE, likeContains } from '../../database/like';
import { effectiveStatus, POST_STATUSES, type PostStatus } from './post-status';
import type { PostEntity } from './post.entity';
import { scopeCondition, type ListScope } from './post-visibility';

export type { ListScope } from './post-visibility';

const ALL_BUT_TRASH = POST_STATUSES.filter((s) => s !== 'trash');

/**
 * Anonymous callers and subscribers see published records and may ask for nothing else (400).
 * Editors see every status but trash unless they ask; authors and contributors see published
 * records plus their own of the other statuses.
 */
export function listScopeFor(user: AuthUser | null, requested: PostStatus[] | undefined): ListScope {
  if (can(user, 'edit_others_posts')) return { statuses: requested ?? ALL_BUT_TRASH };
  if (user && can(user, 'edit_posts')) return { statuses: requested ?? ALL_BUT_TRASH, ownerId: user.id };
  if (requested && requested.some((s) => s !== 'publish')) {
    throw RequestValidationError.of({ status: reason('one_of', 'publish') });
  }
  return { statuses: ['publish'] };
}

/** Whether one post falls within a scope: the in-memory twin of {@link applyListScope}. */
export function isInScope(
  scope: ListScope,
  post: Pick<PostEntity, 'status' | 'dateUtc' | 'authorId'>,
  nowUtc: string,
): boolean {
  const status = effectiveStatus(post.status, post.dateUtc, nowUtc);
  if (!scope.statuses.includes(status)) return false;
  return status === 'publish' || scope.ownerId === undefined || scope.ownerId === post.authorId;
}

/** Applies a {@link ListScope} to a query on `posts` aliased `alias`. */
export function applyListScope<T extends ObjectLiteral>(
  qb: SelectQueryBuilder<T>,
  alias: string,
  scope: ListScope,
  nowUtc: string,
): SelectQueryBuilder<T> {
  const condition = scopeCondition(alias, scope, nowUtc);
  return qb.andWhere(condition.sql, condition.params);
}

/**
 * Search where every token must appear (case-insensitively) in the same one of `columns`.
 * `columns` are SQL expressions of the query's aliases.
 */
export function applyTokenSearchInOneField<T extends ObjectLiteral>(
  qb: SelectQueryBuilder<T>,
  tokens: string[],
  columns: string[],
): SelectQueryBuilder<T> {
  if (tokens.length === 0) return qb;
  const params: Record<string, string> = {};
  tokens.forEach((token, i) => (params[`tok${i}`] = likeContains(token.toLowerCase())));
  return qb.andWhere(
    new Brackets((w) => {
      for (const column of columns) {
        const all = tokens.map((_t, i) => `LOWER(${column}) LIKE :tok${i} ${LIKE_ESCAPE}`).join(' AND ');
        w.orWhere(`(${all})`, params);
      }
    }),
  );
}

/** Search where every token must appear in at least one of `columns` (each token may use a different one). */
export function applyTokenSearchAcrossFields<T extends ObjectLiteral>(
  qb: SelectQueryBuilder<T>,
  tokens: string[],
  columns: string[],
): SelectQueryBuilder<T> {
  tokens.forEach((token, i) => {
    const any = columns.map((column) => `LOWER(${column}) LIKE :stok${i} ${LIKE_ESCAPE}`).join(' OR ');
    qb.andWhere(`(${any})`, { [`stok${i}`]: likeContains(token.toLowerCase()) });
  });
  return qb;
}
