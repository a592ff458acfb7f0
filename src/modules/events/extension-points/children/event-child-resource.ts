import type { Type } from '@nestjs/common';
import type { ResponseSchema } from '../../../../common/http/response-schema-registry';
import type { Localized } from '../../../../common/i18n/language';

/** A child record's entity: its own id and the event it belongs to. */
export interface EventChildEntity {
  id: number;
  eventId: number;
}

/** The event a child record belongs to, as its definition sees it (times in UTC, `YYYY-MM-DD HH:mm:ss`). */
export interface EventChildParent {
  id: number;
  status: string;
  startUtc: string;
  endUtc: string;
  timezone: string;
  allDay: boolean;
}

/**
 * What a child record must keep to with its event (a session inside the event's times). `misfit` answers the
 * write parameters a record breaks, as validation reasons (`reason(...)`), or null when it fits. A child write
 * that misfits is a 400. When an edit of the event (its dates, a series' move) leaves records misfitting:
 * - `refuse`: the event's edit is refused, 400 naming the records (`start_date`/`end_date`);
 * - `report`: the edit goes ahead and each record's object says `outside_event: true` until it fits again.
 */
export interface EventChildParentRule<TEntity> {
  misfit(record: TEntity, event: EventChildParent): Record<string, string> | null;
  whenEventMoves: 'refuse' | 'report';
}

/**
 * A resource under `/events/{id}/<path>` (an event's tickets, its sessions), declared:
 * `EventChildResourceModule.forDefinition()` builds its routes (list, create, read, update, delete), its
 * service, its errors and its OpenAPI entries. Reads answer as the event's read does (its password included);
 * writes need what an edit of the event needs, honour `If-Match`, run in one transaction and change the event
 * (its `modified`, `ETag`, documents, caches, change feed and webhooks).
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
  apply(record: TEntity, dto: TCreate | TUpdate, event: EventChildParent): void;
  /** The record as the API shows it (`nowUtc`: the request's time, for members that turn with it). */
  toObject(record: TEntity, nowUtc: string): Record<string, unknown>;
  /** What a record must keep to with its event; none: records do not depend on the event's fields. */
  parent?: EventChildParentRule<TEntity>;
  /** Operation summaries and the not-found message. */
  texts: { en: { a: string; many: string }; de: { a: string; many: string }; notFound: Localized };
  openApi: { schema: ResponseSchema; examples: { create: ResponseSchema; update: ResponseSchema } };
}
