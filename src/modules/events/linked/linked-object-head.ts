import type { RequestContext } from '../../../common/http/request-context';
import type { AttachmentDetailsEntity } from '../../../core/posts/attachments/attachment-details.entity';
import { toImageObject } from '../../../core/posts/attachments/image.mapper';
import { basePostFields, postHead } from '../../../core/posts/post.mapper';
import type { PostEntity } from '../../../core/posts/post.entity';
import type { PostTypeDefinition } from '../../../core/posts/post-type.registry';

/**
 * The members every linked object starts with (behaviour.md §8), in order: the post head, the name under
 * the type's own key (`venue`, `speaker`), description, excerpt, slug, image and the global ids. The type
 * adds its companion fields after it; `withoutEmpty` then drops the empty ones.
 */
export function linkedObjectHead(
  def: PostTypeDefinition,
  restBase: string,
  post: PostEntity,
  image: AttachmentDetailsEntity | undefined,
  ctx: RequestContext,
  nowUtc: string,
): Record<string, unknown> & { id: number } {
  const base = basePostFields(post, def, restBase, ctx, nowUtc);
  return {
    ...postHead(base),
    [def.noun]: post.title,
    description: post.content,
    excerpt: post.excerpt,
    slug: post.slug,
    image: image ? toImageObject(image) : false,
    global_id: base.global_id,
    global_id_lineage: base.global_id_lineage,
  };
}
