import type { RequestContext } from '../../common/http/request-context';
import type { AttachmentDetailsEntity } from '../../core/posts/attachments/attachment-details.entity';
import { setIfPresent, withoutEmpty } from '../../core/posts/post.mapper';
import { linkedObjectHead } from '../events';
import type { PostEntity } from '../../core/posts/post.entity';
import type { OrganizerDetailsEntity } from './organizer-details.entity';
import { ORGANIZER_POST_TYPE, ORGANIZERS_REST_BASE } from './organizer.post-type';

export type OrganizerObject = Record<string, unknown> & { id: number; organizer: string };

/** The organizer object of behaviour.md §8; keys with empty values are left out. */
export function toOrganizerObject(
  post: PostEntity,
  details: OrganizerDetailsEntity,
  image: AttachmentDetailsEntity | undefined,
  ctx: RequestContext,
  nowUtc: string,
): OrganizerObject {
  const organizer = linkedObjectHead(ORGANIZER_POST_TYPE, ORGANIZERS_REST_BASE, post, image, ctx, nowUtc);
  setIfPresent(organizer, 'phone', details.phone);
  setIfPresent(organizer, 'website', details.website);
  setIfPresent(organizer, 'email', details.email);
  return organizer as OrganizerObject;
}

/** schema.org `Person`, for single reads. */
export function toPersonJsonLd(organizer: OrganizerObject): Record<string, unknown> {
  return withoutEmpty({
    '@context': 'http://schema.org',
    '@type': 'Person',
    name: organizer.organizer,
    description: organizer.description,
    url: organizer.url,
    telephone: organizer.phone,
    email: organizer.email,
    sameAs: organizer.website,
  });
}
