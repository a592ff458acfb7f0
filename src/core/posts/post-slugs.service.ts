import { Injectable } from '@nestjs/common';
import { isUniqueViolation } from '../../common/errors/driver-errors';
import { PostEntity } from './post.entity';
import { pickAvailableSlug, slugify } from './slugs';
import { DatabaseContext } from '../../database/database-context';
import { statementRuns } from '../../database/statement-runs';

// Slugs tried in one transaction before the race is left to the whole-transaction retry.
const MAX_SLUG_TRIES = 25;

const baseSlug = (desired: string, fallback: string): string => slugify(desired) || slugify(fallback) || 'post';

/** Post slugs: unique within their post type, `-2`, `-3`… on collision, the post being updated excluded. */
@Injectable()
export class PostSlugsService {
  constructor(private readonly db: DatabaseContext) {}

  /**
   * @param desired the client's slug, or the title when none was given
   * @param fallback used when `desired` has no letters or digits at all (e.g. the type's noun)
   * @param alsoTaken slugs known to be taken although this transaction cannot see them yet
   */
  async uniqueSlug(
    type: string,
    desired: string,
    fallback: string,
    excludeId?: number,
    alsoTaken: readonly string[] = [],
  ): Promise<string> {
    const base = baseSlug(desired, fallback);
    const qb = this.db.manager
      .createQueryBuilder(PostEntity, 'p')
      .select('p.slug', 'slug')
      .where('p.type = :type', { type })
      .andWhere('(p.slug = :base OR p.slug LIKE :prefix)', { base, prefix: `${base}-%` });
    if (excludeId !== undefined) qb.andWhere('p.id <> :excludeId', { excludeId });
    const rows = await qb.getRawMany<{ slug: string }>();
    return pickAvailableSlug(base, [...rows.map((r) => r.slug), ...alsoTaken]);
  }

  /**
   * Inserts a new post under the first free slug (every column set, so nothing is read back). The plain
   * slug is tried first without a look-up (most new titles are new); when it is taken — or a concurrent
   * writer takes the one picked between the look-up and the insert — the insert alone fails and the next
   * free suffix is tried, so a burst of creates with one title all succeed (`title`, `title-2`, …) instead
   * of answering 409.
   */
  async insertWithUniqueSlug(post: PostEntity, desired: string, fallback: string): Promise<PostEntity> {
    const tried: string[] = [];
    post.slug = baseSlug(desired, fallback);
    for (;;) {
      try {
        post.id = await this.db.attemptStatement(() => this.db.insertReturningId(PostEntity, post));
        return post;
      } catch (error) {
        if (!isUniqueViolation(error) || tried.length >= MAX_SLUG_TRIES) throw error;
        tried.push(post.slug);
      }
      post.slug = await this.uniqueSlug(post.type, desired, fallback, undefined, tried);
    }
  }

  /**
   * The slug {@link uniqueSlug} would pick for each of `desired`, each earlier one counted as taken: the
   * bases first, then each taken one's `-2`, `-3`… in rounds, one look-up per round for all of them.
   */
  async uniqueSlugs(type: string, desired: readonly string[], fallback: string): Promise<string[]> {
    const bases = desired.map((d) => baseSlug(d, fallback));
    const chosen: string[] = new Array<string>(bases.length);
    const claimed = new Set<string>();
    let pending = bases.map((_, index) => index);
    for (let n = 1; pending.length > 0; n++) {
      if (n > MAX_SLUG_TRIES) {
        // Crowded names: the look-up of every suffix in use, one name at a time.
        for (const index of pending) {
          chosen[index] = await this.uniqueSlug(type, desired[index], fallback, undefined, [...claimed]);
          claimed.add(chosen[index]);
        }
        break;
      }
      const candidates = pending.map((index) => (n === 1 ? bases[index] : `${bases[index]}-${n}`));
      const taken = new Set((await this.idsBySlug(type, candidates)).keys());
      const next: number[] = [];
      pending.forEach((index, k) => {
        const candidate = candidates[k];
        if (taken.has(candidate) || claimed.has(candidate)) next.push(index);
        else {
          chosen[index] = candidate;
          claimed.add(candidate);
        }
      });
      pending = next;
    }
    return chosen;
  }

  /** The ids of the posts of `type` among `slugs`, by slug. */
  async idsBySlug(type: string, slugs: readonly string[]): Promise<Map<string, number>> {
    const ids = new Map<string, number>();
    for (const run of statementRuns([...new Set(slugs)], 1)) {
      const rows = await this.db.manager
        .createQueryBuilder(PostEntity, 'p')
        .select(['p.id AS id', 'p.slug AS slug'])
        .where('p.type = :type', { type })
        .andWhere('p.slug IN (:...slugs)', { slugs: run })
        .getRawMany<{ id: number; slug: string }>();
      for (const row of rows) ids.set(row.slug, Number(row.id));
    }
    return ids;
  }
}
