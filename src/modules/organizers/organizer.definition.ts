import type { LinkedPostTypeDefinition } from '../events';
import { CreateOrganizerDto } from './dto/create-organizer.dto';
import { ListOrganizersQueryDto } from './dto/list-organizers-query.dto';
import { UpdateOrganizerDto } from './dto/update-organizer.dto';
import { EventOrganizerEntity } from './event-organizer.entity';
import { OrganizerDetailsEntity } from './organizer-details.entity';
import { ORGANIZER_EVENT_LINK } from './organizer.event-link';
import { toOrganizerObject, toPersonJsonLd, type OrganizerObject } from './organizer.mapper';
import { ORGANIZER_POST_TYPE, ORGANIZERS_REST_BASE } from './organizer.post-type';

const TEXT_FIELDS = ['phone', 'website', 'email'] as const;

/** Organizers (behaviour.md §8): a linked post type with an `organizer_details` companion, linked in order. */
export const ORGANIZER_DEFINITION: LinkedPostTypeDefinition<
  OrganizerDetailsEntity,
  EventOrganizerEntity,
  OrganizerObject,
  UpdateOrganizerDto
> = {
  def: ORGANIZER_POST_TYPE,
  restBase: ORGANIZERS_REST_BASE,
  createDto: CreateOrganizerDto,
  updateDto: UpdateOrganizerDto,
  listQueryDto: ListOrganizersQueryDto,
  nameOf: (dto) => dto.organizer,
  newDetails: (postId) => Object.assign(new OrganizerDetailsEntity(), { postId, phone: '', website: '', email: '' }),
  applyDetails: (details, dto) => {
    for (const field of TEXT_FIELDS) {
      const value = dto[field];
      if (value !== undefined) details[field] = value.trim();
    }
  },
  toObject: toOrganizerObject,
  jsonLd: toPersonJsonLd,
  tables: {
    details: OrganizerDetailsEntity,
    link: EventOrganizerEntity,
    linkProperty: 'organizerId',
    searchColumns: ['p.title', 'p.content', 'p.excerpt', 'd.phone', 'd.email', 'd.website'],
  },
  eventLink: ORGANIZER_EVENT_LINK,
  texts: {
    en: { a: 'an organizer', the: 'organizer', many: 'organizers' },
    de: { a: 'einen Veranstalter', of: 'des Veranstalters', many: 'Veranstalter' },
  },
};
