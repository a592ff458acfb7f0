import type { RequestContext } from '../../../../common/http/request-context';
import { wpTitleHtml } from '../../../../common/text/wordpress-text';
import type { AttachmentDetailsEntity } from '../../../../core/posts/attachments/attachment-details.entity';
import { toImageObject } from '../../../../core/posts/attachments/image.mapper';
import { basePostFields, setIfPresent } from '../../../../core/posts/post.mapper';
import type { PostEntity } from '../../../../core/posts/post.entity';
import type { PostTypeDefinition } from '../../../../core/posts/post-type.registry';

/**
 * The members every linked object starts with (behaviour.md §8), in order: the post head, the name under
 * the type's own key (`venue`, `speaker`), description, excerpt, slug, image and the global ids, each
 * left out when empty. The type adds its companion fields after it with `setIfPresent`. Built by
 * assignment: a page embeds dozens of these, and spreading into a computed key cost more than the rest.
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
  const head: Record<string, unknown> & { id: number } = { id: base.id };
  setIfPresent(head, 'author', base.author);
  setIfPresent(head, 'status', base.status);
  setIfPresent(head, 'date', base.date);
  setIfPresent(head, 'date_utc', base.date_utc);
  setIfPresent(head, 'modified', base.modified);
  setIfPresent(head, 'modified_utc', base.modified_utc);
  setIfPresent(head, 'url', base.url);
  setIfPresent(head, 'rest_url', base.rest_url);
  // The reference's clients print names as HTML: its alias sends them escaped, as WordPress does.
  setIfPresent(head, def.noun, ctx.dialect === 'tec' ? wpTitleHtml(post.title) : post.title);
  setIfPresent(head, 'description', post.content);
  setIfPresent(head, 'excerpt', post.excerpt);
  setIfPresent(head, 'slug', post.slug);
  if (image) head.image = toImageObject(image);
  setIfPresent(head, 'global_id', base.global_id);
  setIfPresent(head, 'global_id_lineage', base.global_id_lineage);
  return head;
}
