import type { Type } from '@nestjs/common';
import type { ObjectLiteral } from 'typeorm';
import type { EventLinkDefinition } from '../links/event-link';
import type { LinkedPostListQueryDto } from './linked-post-list-query.dto';
import type { LinkedPostTypeSpec } from './linked-post-type.service';
import type { LinkedPostsTables } from './linked-posts.repository';

/** How the generated routes name the type in their documentation, in every language. */
export interface LinkedPostTypeTexts {
  /** `a venue` / `an organizer`, `venue`, `venues`. */
  en: { a: string; the: string; many: string };
  /** `einen Veranstaltungsort`, `des Veranstaltungsorts`, `Veranstaltungsorte`. */
  de: { a: string; of: string; many: string };
}

/**
 * Everything that makes a post type events link to (venues, organizers, speakers): its post type, its
 * companion and link tables, its DTOs, how its objects look, how events link to it. From this
 * `LinkedPostTypeModule.forDefinition()` builds the routes (list, create, read, update, trash/delete, by id
 * and by slug), the service, the queries, the OpenAPI entries and the event link.
 */
export interface LinkedPostTypeDefinition<
  TDetails extends { postId: number },
  TLink extends ObjectLiteral,
  TObject extends { id: number },
  TUpdate,
> extends LinkedPostTypeSpec<TDetails, TObject, TUpdate> {
  /** The update DTO (`PartialUpdate(CreateDto)`) and the list query DTO (`LinkedPostListQueryDto` or a subclass). */
  updateDto: Type<TUpdate>;
  listQueryDto: Type<LinkedPostListQueryDto>;
  /**
   * The companion entity and the searched columns; the link entity and its property naming the linked
   * record, or none to have them made from `eventLink` (`eventLinkEntity`).
   */
  tables: Omit<
    LinkedPostsTables<TDetails, TLink>,
    'type' | 'parentType' | 'linkTable' | 'linkColumn' | 'link' | 'linkProperty'
  > &
    Partial<Pick<LinkedPostsTables<TDetails, TLink>, 'link' | 'linkProperty'>>;
  eventLink: EventLinkDefinition;
  texts: LinkedPostTypeTexts;
}

/** The DI token of a linked post type's service. */
export const linkedServiceToken = (type: string): string => `linked-post-type-service:${type}`;
