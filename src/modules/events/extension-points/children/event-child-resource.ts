import type { Type } from '@nestjs/common';
import type { ResponseSchema } from '../../../../common/http/response-schema-registry';
import type { Localized } from '../../../../common/i18n/language';

/** A child record's entity: its own id and the event it belongs to. */
export interface EventChildEntity {
  id: number;
  eventId: number;
}

/**
 * A resource under `/events/{id}/<path>` (an event's tickets, its sessions), declared:
 * `EventChildResourceModule.forDefinition()` builds its routes (list, create, read, update, delete), its
 * service, its errors and its OpenAPI entries. Reads answer as the event's read does; writes need what an
 * edit of the event needs, run in one transaction and mark the event changed (documents, caches, change feed).
 */
export interface EventChildResourceDefinition<
  TEntity extends EventChildEntity,
  TCreate extends object,
  TUpdate extends object,
> {
  /** The path under the event and key of the list envelope: `tickets`. */
  path: string;
  /** The noun in error codes (`rest-ticket-not-found`) and the OpenAPI component (`Ticket`). */
  noun: string;
  entity: Type<TEntity>;
  createDto: Type<TCreate>;
  updateDto: Type<TUpdate>;
  /** A new record of the event, before the create's fields are applied. */
  create(eventId: number): TEntity;
  /** Applies a write's fields; throws `RequestValidationError` for a combination it refuses. */
  apply(record: TEntity, dto: TCreate | TUpdate): void;
  /** The record as the API shows it (`nowUtc`: the request's time, for members that turn with it). */
  toObject(record: TEntity, nowUtc: string): Record<string, unknown>;
  /** Operation summaries and the not-found message. */
  texts: { en: { a: string; many: string }; de: { a: string; many: string }; notFound: Localized };
  openApi: { schema: ResponseSchema; examples: { create: ResponseSchema; update: ResponseSchema } };
}
