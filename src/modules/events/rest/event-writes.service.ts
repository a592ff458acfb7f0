import { deletedRecord, type DeletedRecord } from '../../../core/posts/deleted-record';
import { Injectable } from '@nestjs/common';
import type { AuthUser } from '../../../auth/auth-user';
import { SiteTime } from '../../../common/dates/site-time';
import { DomainError } from '../../../common/errors/domain-error';
import type { RequestContext } from '../../../common/http/request-context';
import { RequestValidationError } from '../../../common/validation/request-validation.error';
import { reason } from '../../../common/validation/validation-messages';
import { WriteTransactions } from '../../../database/write-transactions';
import { ConditionalWrites } from '../../../core/changes/conditional-writes';
import { postErrors } from '../../../core/posts/post-errors';
import { PostRecordsService } from '../../../core/posts/post-records.service';
import type { PostRef } from '../../../core/posts/post-ref';
import type { PostEntity } from '../../../core/posts/post.entity';
import { CALENDAR_POST_TYPES } from '../../calendar-post-types';
import type { CreateEventDto } from './dto/create-event.dto';
import type { UpdateEventDto } from './dto/update-event.dto';
import type { EventDetailsEntity } from '../model/event-details.entity';
import { eventDatesOf } from '../model/event-details-input';
import { type EventObject } from '../model/event.mapper';
import { EVENT_POST_TYPE } from '../model/event.post-type';
import { EventObjectsService } from '../model/event-objects.service';
import { EventRecordWriter } from '../model/event-record-writer';
import { EventsRepository } from '../archive/events.repository';
import { EventsQueryService } from './events-query.service';
import { SeriesWrites } from '../recurrence/series-writes.service';
import type { WriteScope } from '../recurrence/write-scope';

/** What a write made of an event, for a writer that needs no answer. */
export interface WrittenEvent {
  id: number;
  slug: string;
}

const writtenOf = (post: PostEntity): WrittenEvent => ({ id: post.id, slug: post.slug });

/** Event writes (behaviour.md §6, §11): create, update and delete, each in one transaction with its links. */
@Injectable()
export class EventWritesService {
  constructor(
    private readonly transactions: WriteTransactions,
    private readonly events: EventsRepository,
    private readonly objects: EventObjectsService,
    private readonly records: PostRecordsService,
    private readonly siteTime: SiteTime,
    private readonly reads: EventsQueryService,
    private readonly conditional: ConditionalWrites,
    private readonly writer: EventRecordWriter,
    private readonly series: SeriesWrites,
  ) {}

  async create(dto: CreateEventDto, ctx: RequestContext): Promise<EventObject> {
    return this.objects.afterWrite((await this.createRecord(dto, ctx)).id, ctx);
  }

  /**
   * {@link create} without its answer: the new event's id and slug. For a writer that reads nothing back (an
   * import), which saves the answer's reads.
   */
  createRecord(dto: CreateEventDto, ctx: RequestContext): Promise<WrittenEvent> {
    return this.transactions.run(async () => {
      const zoneName = dto.timezone?.trim() || this.siteTime.zone;
      const allDay = dto.all_day ?? false;
      const dates = eventDatesOf({ start: dto.start_date, end: dto.end_date, zoneName, allDay });
      const post = await this.writer.insert(dto, { dates, zoneName, allDay }, ctx.user);
      if (hasLines(dto.recurrence)) {
        const details = await this.detailsOf(post.id);
        await this.series.start(post, details, dto.recurrence, ctx.user, dto, this.siteTime.now().utc);
      }
      return writtenOf(post);
    });
  }

  /**
   * `scope` (behaviour.md §11) matters for an occurrence of a series only: `this` edits it alone (it keeps
   * its id and leaves later series edits), `following` and `all` edit the series from it or whole.
   */
  async update(
    ref: PostRef,
    dto: UpdateEventDto,
    ctx: RequestContext,
    scope: WriteScope = 'this',
  ): Promise<EventObject> {
    return this.objects.afterWrite((await this.updateRecord(ref, dto, ctx, scope)).id, ctx);
  }

  /** {@link update} without its answer (see {@link createRecord}). */
  updateRecord(
    ref: PostRef,
    dto: UpdateEventDto,
    ctx: RequestContext,
    scope: WriteScope = 'this',
  ): Promise<WrittenEvent> {
    return this.transactions.run(async () => {
      const { post, details, series: locked } = await this.openForWrite(ref, ctx, 'edit');
      const nowUtc = this.siteTime.now().utc;
      const lines = dto.recurrence;
      if (!locked) {
        await this.writer.apply(post, details, dto, ctx.user);
        if (hasLines(lines)) await this.series.start(post, details, lines, ctx.user, dto, nowUtc);
        return writtenOf(post);
      }
      const isFirst = details.occurrenceLocal === locked.startLocal;
      if (scope === 'this') {
        if (lines !== undefined && !isFirst) {
          throw RequestValidationError.of({
            recurrence: reason('series_scope'),
          });
        }
        const own = { ...dto, recurrence: undefined };
        const wasTrashed = post.status === 'trash';
        await this.writer.apply(post, details, own, ctx.user, { detach: hasOwnFields(own) });
        if (wasTrashed && post.status !== 'trash') await this.series.includeOne(locked, { post, details });
        if (lines !== undefined) {
          await this.series.reline(locked, lines, post, ctx.user, nowUtc);
        }
        return writtenOf(post);
      }
      await this.series.edit(locked, { post, details }, dto, scope, ctx.user, nowUtc);
      return writtenOf(post);
    });
  }

  /**
   * Trash (keeping links, so the event can come back), or with `force` delete for good. For an occurrence,
   * `scope=this` adds an EXDATE to its series; `following` and `all` take the series' other occurrences along.
   */
  delete(
    ref: PostRef,
    force: boolean,
    ctx: RequestContext,
    scope: WriteScope = 'this',
  ): Promise<EventObject | DeletedRecord<EventObject>> {
    return this.transactions.run(async () => {
      const { post, details, series: locked } = await this.openForWrite(ref, ctx, 'delete');
      if (locked && scope !== 'this') await this.series.deleteOthers(locked, { post, details }, scope, force, ctx.user);
      else if (locked) await this.series.excludeOne(locked, { post, details }, force);
      if (force) {
        const [before] = await this.objects.toObjects([post], ctx, () => true);
        await this.records.destroy(EVENT_POST_TYPE, post, ctx.user);
        return deletedRecord(before.object);
      }
      const trashed = await this.records.trash(EVENT_POST_TYPE, post);
      const [after] = await this.objects.toObjects([trashed], ctx, () => true);
      return after.object;
    });
  }

  /**
   * The event to write, locked, with its details and, for an occurrence, its series locked too; read again
   * after the series' lock (writes run at READ COMMITTED), so a series edit that held it is seen whole.
   */
  private async openForWrite(ref: PostRef, ctx: RequestContext, action: 'edit' | 'delete') {
    let post = await this.findWritableEvent(ref, ctx.user, action);
    let details = await this.detailsOf(post.id);
    const series = details.seriesId === null ? null : await this.series.lockSeries(details.seriesId);
    if (series) {
      post = await this.findWritableEvent({ id: post.id }, ctx.user, action);
      details = await this.detailsOf(post.id);
    }
    await this.assertConditions(post, ctx);
    return { post, details, series };
  }

  private async detailsOf(id: number): Promise<EventDetailsEntity> {
    const details = (await this.events.detailsOf([id])).get(id);
    if (!details) throw postErrors.notFound(EVENT_POST_TYPE);
    return details;
  }

  /** `If-Match` / `If-Unmodified-Since` against the event as the caller's GET shows it. */
  private assertConditions(post: PostEntity, ctx: RequestContext): Promise<void> {
    return this.conditional.assert(ctx, {
      resource: EVENT_POST_TYPE.noun,
      id: post.id,
      modifiedUtc: post.modifiedUtc,
      representation: () => this.reads.answer({ id: post.id }, undefined, ctx),
    });
  }

  /**
   * The event to change, locked (`findWritable`); when there is none, `invalid-event-id` for an id of
   * another post type rather than 404 — looked up only then, so an edit reads the row once.
   */
  private async findWritableEvent(ref: PostRef, user: AuthUser | null, action: 'edit' | 'delete'): Promise<PostEntity> {
    try {
      return await this.records.findWritable(EVENT_POST_TYPE, ref, user, action);
    } catch (error) {
      // Only "not found" asks; any other error (a deadlock to retry) goes on as it came.
      if (error instanceof DomainError && error.key === 'post_not_found') await this.assertEventId(ref);
      throw error;
    }
  }

  /** One lookup: by id it also tells "not an event" (400) from "nothing there" (404). */
  private async assertEventId(ref: PostRef): Promise<void> {
    if (!('id' in ref)) return;
    const post = await this.events.findAnyPost(ref.id);
    if (post && post.type !== CALENDAR_POST_TYPES.event)
      throw new DomainError('invalid_event_id', { args: { id: ref.id } });
  }
}

/** Whether a `recurrence` value asks for a series (null and `[]` end one; absent changes nothing). */
function hasLines(value: unknown): boolean {
  return Array.isArray(value) && value.length > 0;
}

/** Whether a write changes the occurrence itself (then it is edited on its own), beyond `recurrence`. */
function hasOwnFields(dto: object): boolean {
  return Object.entries(dto).some(([key, value]) => key !== 'recurrence' && key !== 'scope' && value !== undefined);
}
