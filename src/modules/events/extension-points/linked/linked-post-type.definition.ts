import type { Type } from '@nestjs/common';
import type { ConditionalWrites } from '../../../../core/changes/conditional-writes';
import type { ObjectLiteral } from 'typeorm';
import type { SiteTime } from '../../../../common/dates/site-time';
import type { RequestContext } from '../../../../common/http/request-context';
import type { AppConfig } from '../../../../config/app-config';
import type { AttachmentDetailsEntity } from '../../../../core/posts/attachments/attachment-details.entity';
import type { AttachmentsService } from '../../../../core/posts/attachments/attachments.service';
import type { PostRecordsService } from '../../../../core/posts/post-records.service';
import type { PostTypeDefinition } from '../../../../core/posts/post-type.registry';
import type { PostWriteInput } from '../../../../core/posts/post-write-input';
import type { PostEntity } from '../../../../core/posts/post.entity';
import type { DatabaseContext } from '../../../../database/database-context';
import type { WriteTransactions } from '../../../../database/write-transactions';
import type { ResponseSchema } from '../../../../common/http/response-schema-registry';
import type { EventLinkDefinition } from '../links/event-link';
import type { LinkedPostExtensionRegistry } from './linked-post-extension';
import type { LinkedPostListQueryDto } from './linked-post-list-query.dto';
import type { LinkedPostsTables } from './linked-posts.repository';

/** What a linked post type (venue, organizer) tells the shared service about itself. */
export interface LinkedPostTypeSpec<TDetails, TObject, TUpdate> {
  def: PostTypeDefinition;
  restBase: string;
  /** The create DTO, for inline records in an event write. */
  createDto: new () => object;
  /** The record's name field of a write (`venue`, `organizer`). */
  nameOf(dto: TUpdate): string | undefined;
  /** The shared post fields of a write; by default the common ones (`PostFieldsDto`: description, status, dates, author, image). */
  postInput?(dto: TUpdate): PostWriteInput;
  newDetails(postId: number): TDetails;
  /** Copies the given companion fields onto `details` (`""` clears). */
  applyDetails(details: TDetails, dto: TUpdate): void;
  toObject(
    post: PostEntity,
    details: TDetails,
    image: AttachmentDetailsEntity | undefined,
    ctx: RequestContext,
    nowUtc: string,
  ): TObject;
  /** schema.org description, added to single reads as `json_ld`. */
  jsonLd(object: TObject): Record<string, unknown>;
}

export interface LinkedPostTypeDeps {
  db: DatabaseContext;
  transactions: WriteTransactions;
  records: PostRecordsService;
  attachments: AttachmentsService;
  siteTime: SiteTime;
  config: AppConfig;
  extensions: LinkedPostExtensionRegistry;
  conditional: ConditionalWrites;
}

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
  /**
   * The OpenAPI description of its objects (the members `toObject` gives) and the request examples "Try it
   * out" sends; the list envelope and the event's link member are made from them. The service's own venues
   * and organizers are described in discovery/response-schemas.ts instead.
   */
  openApi?: { schema: ResponseSchema; examples: { create: ResponseSchema; update: ResponseSchema } };
}

/** The DI token of a linked post type's service. */
export const linkedServiceToken = (type: string): string => `linked-post-type-service:${type}`;
