import { Brackets, type SelectQueryBuilder, type ObjectLiteral } from 'typeorm';
import type { PostStatus } from './post-status';

let parameterCounter = 0;

/**
 * Restricts a query on `posts` (aliased `alias`) to the given statuses, judged as of `nowUtc`:
 * `publish` includes `future` posts whose date has come, and `future` excludes them, so a scheduled
 * post becomes visible exactly at its date even before the scheduler has flipped its status.
 */
export function whereStatusIn<T extends ObjectLiteral>(
  qb: SelectQueryBuilder<T>,
  alias: string,
  statuses: readonly PostStatus[],
  nowUtc: string,
): SelectQueryBuilder<T> {
  const n = ++parameterCounter;
  const others = statuses.filter((s) => s !== 'publish' && s !== 'future');
  return qb.andWhere(
    new Brackets((w) => {
      w.where('1 = 0');
      if (others.length > 0) w.orWhere(`${alias}.status IN (:...others${n})`, { [`others${n}`]: others });
      if (statuses.includes('publish')) {
        w.orWhere(`${alias}.status = 'publish'`);
        w.orWhere(`(${alias}.status = 'future' AND ${alias}.dateUtc <= :now${n})`, { [`now${n}`]: nowUtc });
      }
      if (statuses.includes('future')) {
        w.orWhere(`(${alias}.status = 'future' AND ${alias}.dateUtc > :now${n})`, { [`now${n}`]: nowUtc });
      }
    }),
  );
}
