import type { RequestContext } from '../../../../common/http/request-context';
import type { PostEntity } from '../../../../core/posts/post.entity';
import type { LinkedPostTypeDeps, LinkedPostTypeSpec } from './linked-post-type.definition';
import type { LinkedPostsRepository } from './linked-posts.repository';
import type { ObjectLiteral } from 'typeorm';

/**
 * The objects of a linked type's posts: companion rows (`known`, or read in one query), images and the
 * fields other modules add, a fixed number of queries for any number of posts.
 */
export async function linkedObjectsOf<TDetails extends { postId: number }, TObject extends object, TUpdate>(
  deps: LinkedPostTypeDeps,
  repository: Pick<LinkedPostsRepository<TDetails, ObjectLiteral>, 'detailsOf'>,
  spec: LinkedPostTypeSpec<TDetails, TObject, TUpdate>,
  { posts, ctx, known }: { posts: PostEntity[]; ctx: RequestContext; known?: Map<number, TDetails> },
): Promise<TObject[]> {
  const details = known ?? (await repository.detailsOf(posts.map((p) => p.id)));
  const images = await deps.attachments.findMany(
    posts.map((p) => p.featuredImageId).filter((id): id is number => id !== null),
  );
  const added = await Promise.all(deps.extensions.of(spec.def.type).map((e) => e.fieldsOf(posts.map((p) => p.id))));
  const nowUtc = deps.siteTime.now().utc;
  return posts.map((post) => {
    const object = spec.toObject(
      post,
      details.get(post.id) ?? spec.newDetails(post.id),
      post.featuredImageId === null ? undefined : images.get(post.featuredImageId),
      ctx,
      nowUtc,
    );
    return Object.assign(object, ...added.map((fields) => fields.get(post.id) ?? {})) as TObject;
  });
}
