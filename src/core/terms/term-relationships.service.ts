import { Injectable } from '@nestjs/common';
import type { PostStatus } from '../posts/post-status';
import { PostTypeRegistry } from '../posts/post-type.registry';
import { TaxonomyRegistry } from './taxonomy.registry';
import { countsTowardTerms, TermCountsService } from './term-counts.service';
import { TermRelationshipEntity } from './term-relationship.entity';
import { TermEntity } from './term.entity';
import { DatabaseContext } from '../../database/database-context';

/** What term bookkeeping needs of a post: its id, its type (which taxonomies it may carry) and whether it counts. */
export interface CountedPost {
  id: number;
  type: string;
  status: PostStatus;
}

/** A post whose stored status changed inside the current transaction. */
export interface PostStatusChange {
  postId: number;
  from: PostStatus;
  to: PostStatus;
}

/** Which posts carry which terms. Every change adjusts the counts of the terms it touched, in the caller's transaction. */
@Injectable()
export class TermRelationshipsService {
  constructor(
    private readonly db: DatabaseContext,
    private readonly counts: TermCountsService,
    private readonly postTypes: PostTypeRegistry,
    private readonly taxonomies: TaxonomyRegistry,
  ) {}

  /**
   * Replaces a post's terms of one taxonomy with `termIds`, in that order; `post.status` is its stored
   * status now. `created`: the post was inserted in this transaction, so it has no terms yet.
   */
  setPostTerms(
    post: CountedPost,
    taxonomy: string,
    termIds: number[],
    options: { created?: boolean } = {},
  ): Promise<void> {
    return this.setPostTermsOf(post, new Map([[taxonomy, termIds]]), options);
  }

  /**
   * {@link setPostTerms} for several taxonomies at once (each replaced with its ids, in order), in one
   * statement per kind of change whatever the number of taxonomies.
   */
  async setPostTermsOf(
    post: CountedPost,
    byTaxonomy: ReadonlyMap<string, number[]>,
    options: { created?: boolean } = {},
  ): Promise<void> {
    if (options.created) return this.setNewPostsTerms([post], byTaxonomy);
    if (byTaxonomy.size === 0) return;
    const taxonomies = this.carriedTaxonomies([post], byTaxonomy);
    const current = await this.db.manager
      .createQueryBuilder(TermRelationshipEntity, 'tr')
      .innerJoin(TermEntity, 't', 't.id = tr.termId')
      .select('tr.termId', 'termId')
      .where('tr.postId = :postId', { postId: post.id })
      .andWhere('t.taxonomy IN (:...taxonomies)', { taxonomies })
      .getRawMany<{ termId: number }>();
    const before = current.map((r) => Number(r.termId));
    const wanted = wantedTermIds(taxonomies, byTaxonomy);
    if (countsTowardTerms(post.status)) {
      const deltas = new Map<number, number>();
      for (const id of before) if (!wanted.includes(id)) deltas.set(id, -1);
      for (const id of wanted) if (!before.includes(id)) deltas.set(id, 1);
      // Before the insert: its foreign-key check takes a shared lock on each term row, and two writers
      // that both hold one and then ask for the exclusive lock of the count update deadlock (InnoDB).
      await this.counts.applyDeltas(deltas);
    }
    if (before.length > 0) {
      await this.db.manager
        .createQueryBuilder()
        .delete()
        .from(TermRelationshipEntity)
        .where('post_id = :postId', { postId: post.id })
        .andWhere('term_id IN (:...ids)', { ids: before })
        .execute();
    }
    await this.db.insertOnly(TermRelationshipEntity, relationshipRows([post], taxonomies, byTaxonomy));
  }

  /**
   * The same terms, in order, on posts inserted in this transaction (so without terms yet): each term's
   * count moved once by the number of those posts that count, the rows inserted a few statements at a time.
   */
  async setNewPostsTerms(posts: readonly CountedPost[], byTaxonomy: ReadonlyMap<string, number[]>): Promise<void> {
    if (byTaxonomy.size === 0 || posts.length === 0) return;
    const taxonomies = this.carriedTaxonomies(posts, byTaxonomy);
    const counting = posts.filter((p) => countsTowardTerms(p.status)).length;
    if (counting > 0) {
      // Before the insert, as in `setPostTermsOf`.
      await this.counts.applyDeltas(new Map(wantedTermIds(taxonomies, byTaxonomy).map((id) => [id, counting])));
    }
    await this.db.insertOnly(TermRelationshipEntity, relationshipRows(posts, taxonomies, byTaxonomy));
  }

  /** The taxonomies of a write, each checked to exist and to be carried by every post's type. */
  private carriedTaxonomies(posts: readonly CountedPost[], byTaxonomy: ReadonlyMap<string, number[]>): string[] {
    const taxonomies = [...byTaxonomy.keys()];
    for (const type of new Set(posts.map((p) => p.type))) {
      for (const taxonomy of taxonomies) {
        this.taxonomies.get(taxonomy);
        this.postTypes.assertCarries(type, taxonomy);
      }
    }
    return taxonomies;
  }

  /** Term ids carried by each of the posts. */
  async termIdsByPost(postIds: number[]): Promise<Map<number, number[]>> {
    const byPost = new Map<number, number[]>();
    if (postIds.length === 0) return byPost;
    const rows = await this.db.manager
      .createQueryBuilder(TermRelationshipEntity, 'tr')
      .select(['tr.postId AS postId', 'tr.termId AS termId'])
      .where('tr.postId IN (:...postIds)', { postIds })
      .getRawMany<{ postId: number; termId: number }>();
    for (const row of rows) {
      const list = byPost.get(Number(row.postId)) ?? [];
      list.push(Number(row.termId));
      byPost.set(Number(row.postId), list);
    }
    return byPost;
  }

  /** Unlinks posts from all their terms, counts following; call before deleting posts for good. */
  async detachPosts(posts: CountedPost[]): Promise<void> {
    if (posts.length === 0) return;
    const postIds = posts.map((p) => p.id);
    const terms = await this.termIdsByPost(postIds);
    if (terms.size === 0) return;
    await this.db.manager
      .createQueryBuilder()
      .delete()
      .from(TermRelationshipEntity)
      .where('post_id IN (:...postIds)', { postIds })
      .execute();
    await this.counts.applyDeltas(
      this.deltasFor(
        terms,
        posts.filter((p) => countsTowardTerms(p.status)).map((p) => [p.id, -1]),
      ),
    );
  }

  /** After posts' stored status changed (published, unpublished, trashed), their terms' counts follow. */
  async postStatusChanged(changes: PostStatusChange[]): Promise<void> {
    const moving = changes
      .map((c): [number, number] => [c.postId, Number(countsTowardTerms(c.to)) - Number(countsTowardTerms(c.from))])
      .filter(([, delta]) => delta !== 0);
    if (moving.length === 0) return;
    const terms = await this.termIdsByPost(moving.map(([id]) => id));
    await this.counts.applyDeltas(this.deltasFor(terms, moving));
  }

  private deltasFor(terms: Map<number, number[]>, postDeltas: [number, number][]): Map<number, number> {
    const deltas = new Map<number, number>();
    for (const [postId, delta] of postDeltas) {
      for (const termId of terms.get(postId) ?? []) deltas.set(termId, (deltas.get(termId) ?? 0) + delta);
    }
    return deltas;
  }
}

/** The term ids a write asks for, each once; term ids are unique across taxonomies, so one list serves all. */
function wantedTermIds(taxonomies: readonly string[], byTaxonomy: ReadonlyMap<string, number[]>): number[] {
  return taxonomies.flatMap((taxonomy) => [...new Set(byTaxonomy.get(taxonomy))]);
}

/** The relationship rows of `posts` each carrying the terms asked for, in their order within a taxonomy. */
function relationshipRows(
  posts: readonly CountedPost[],
  taxonomies: readonly string[],
  byTaxonomy: ReadonlyMap<string, number[]>,
): { postId: number; termId: number; termOrder: number }[] {
  return posts.flatMap((post) =>
    taxonomies.flatMap((taxonomy) =>
      [...new Set(byTaxonomy.get(taxonomy))].map((termId, termOrder) => ({ postId: post.id, termId, termOrder })),
    ),
  );
}
