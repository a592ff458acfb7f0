import { In, type ObjectLiteral } from 'typeorm';
import { SiteTime } from '../../../../common/dates/site-time';
import { DomainError } from '../../../../common/errors/domain-error';
import type { ExtensionErrorKey } from '../../../../common/errors/extension-errors';
import type { RequestContext } from '../../../../common/http/request-context';
import { RequestValidationError } from '../../../../common/validation/request-validation.error';
import { documentedProperties } from '../../../../common/validation/documented-properties';
import { validateDto } from '../../../../common/validation/nested';
import { postErrors } from '../../../../core/posts/post-errors';
import { ConditionalWrites } from '../../../../core/changes/conditional-writes';
import {
  buildListResponse,
  isBeyondLastPage,
  resolvePageRequest,
  type ListResponse,
} from '../../../../common/pagination/pagination';
import { AppConfig } from '../../../../config/app-config';
import { DatabaseContext } from '../../../../database/database-context';
import { WriteTransactions } from '../../../../database/write-transactions';
import { EventChildren } from './event-children';
import { EVENT_POST_TYPE } from '../../model/event.post-type';
import type { EventChildEntity, EventChildParent, EventChildResourceDefinition } from './event-child-resource';
import type { EventChildListQueryDto } from './event-child-query.dto';

type AnyRecord = EventChildEntity & ObjectLiteral;
type AnyDefinition = EventChildResourceDefinition<AnyRecord, object, object>;

/** What the service needs besides its definition: one object, so a new dependency is one line. */
export interface EventChildServiceDeps {
  db: DatabaseContext;
  transactions: WriteTransactions;
  children: EventChildren;
  siteTime: SiteTime;
  config: AppConfig;
  conditional: ConditionalWrites;
}

/** The records of one child resource, as its routes read and write them. */
export class EventChildService {
  constructor(
    private readonly def: AnyDefinition,
    private readonly notFound: ExtensionErrorKey,
    private readonly deps: EventChildServiceDeps,
  ) {}

  async list(eventId: number, query: EventChildListQueryDto, ctx: RequestContext): Promise<ListResponse> {
    const event = await this.deps.children.readable(eventId, ctx, query.password);
    const page = resolvePageRequest(query.page, query.per_page, this.deps.config.maxPerPage);
    const [records, total] = await this.deps.db.manager.findAndCount(this.def.entity, {
      where: { eventId },
      order: { id: 'ASC' },
      skip: page.offset,
      take: page.perPage,
    });
    if (isBeyondLastPage(page, total)) {
      // The child's own 404 (`ticket-archive-page-not-found`), as every list answers a page past its end.
      const { noun, texts } = this.def;
      const label = { en: texts.en.many, de: texts.de.many };
      throw postErrors.archivePageNotFound({ type: EVENT_POST_TYPE.type, noun, label });
    }
    const parent = this.def.parent?.whenEventMoves === 'report' ? await this.deps.children.parentOf(event) : null;
    return buildListResponse({
      key: this.def.path,
      items: records.map((r) => this.objectOf(r, parent)),
      total,
      page,
      collectionUrl: `${ctx.namespaceUrl}/events/${eventId}/${this.def.path}`,
      query: {},
    });
  }

  async get(eventId: number, id: number, password: string | undefined, ctx: RequestContext): Promise<object> {
    const event = await this.deps.children.readable(eventId, ctx, password);
    const parent = this.def.parent?.whenEventMoves === 'report' ? await this.deps.children.parentOf(event) : null;
    return this.objectOf(await this.find(eventId, id), parent);
  }

  /** `If-Match` on a create names the event as the caller read it: add this only to the event I saw. */
  create(eventId: number, dto: object, ctx: RequestContext): Promise<object> {
    return this.write(eventId, ctx, null, async (event) => {
      const record = this.def.create(eventId);
      this.def.apply(record, dto, event);
      this.assertFits(record, event);
      return this.deps.db.manager.save(record);
    });
  }

  update(eventId: number, id: number, dto: object, ctx: RequestContext): Promise<object> {
    return this.write(eventId, ctx, id, async (event, record) => {
      this.def.apply(record!, dto, event);
      this.assertFits(record!, event);
      return this.deps.db.manager.save(record!);
    });
  }

  delete(eventId: number, id: number, ctx: RequestContext): Promise<object> {
    return this.write(eventId, ctx, id, async (_event, record) => {
      await this.deps.db.manager.delete(this.def.entity, { id: record!.id });
      return record!;
    });
  }

  /**
   * The import's write (`import:tec` from another instance): the event's records become the source's, each
   * object's create fields (those the create DTO documents) validated as a create's, in one transaction that
   * changes the event, as the import's author (who may edit what the import wrote).
   */
  async replaceAll(eventId: number, objects: readonly Record<string, unknown>[], ctx: RequestContext): Promise<number> {
    const fields = documentedProperties(this.def.createDto);
    const dtos: object[] = [];
    for (const object of objects) {
      // A member the object shows as null is one the record leaves unset: on a create, the same as absent.
      const picked = Object.fromEntries(fields.filter((f) => object[f] != null).map((f) => [f, object[f]]));
      dtos.push(await validateDto(this.def.createDto, picked));
    }
    const { transactions, db, children } = this.deps;
    await transactions.run(async () => {
      const post = await children.editable(eventId, ctx);
      const event = await children.parentOf(post);
      await db.manager.delete(this.def.entity, { eventId });
      const records = dtos.map((dto) => {
        const record = this.def.create(eventId);
        this.def.apply(record, dto, event);
        this.assertFits(record, event);
        return record;
      });
      await db.manager.save(records);
      await children.changed(post);
    });
    return dtos.length;
  }

  /**
   * For an edit of events (a commit step): the records of `eventIds` that no longer fit their event, when
   * the definition refuses such an edit. The edit's transaction rolls back with the 400.
   */
  async assertEventsKeepChildren(eventIds: readonly number[]): Promise<void> {
    if (this.def.parent?.whenEventMoves !== 'refuse' || eventIds.length === 0) return;
    const { db, children } = this.deps;
    const misfits: number[] = [];
    for (let at = 0; at < eventIds.length; at += 500) {
      const ids = eventIds.slice(at, at + 500);
      const records = await db.manager.find(this.def.entity, { where: { eventId: In(ids) }, order: { id: 'ASC' } });
      if (records.length === 0) continue;
      const parents = await children.parentsOf([...new Set(records.map((r) => r.eventId))]);
      for (const record of records) {
        const parent = parents.get(record.eventId);
        if (parent && this.def.parent.misfit(record, parent)) misfits.push(record.id);
      }
    }
    if (misfits.length > 0) {
      throw RequestValidationError.of(children.leftOutside(this.def.path, misfits));
    }
  }

  /** The event's edit rule, its preconditions, then the work, in one transaction that changes the event. */
  private async write(
    eventId: number,
    ctx: RequestContext,
    id: number | null,
    work: (event: EventChildParent, record: AnyRecord | null) => Promise<AnyRecord>,
  ): Promise<object> {
    const { transactions, children, conditional } = this.deps;
    const [saved, parent] = await transactions.run(async () => {
      const post = await children.editable(eventId, ctx);
      const record = id === null ? null : await this.find(eventId, id);
      const event = await children.parentOf(post);
      const report = this.def.parent?.whenEventMoves === 'report' ? event : null;
      await conditional.assert(ctx, {
        resource: record ? `${EVENT_POST_TYPE.noun}-${this.def.path}` : EVENT_POST_TYPE.noun,
        id: record ? record.id : eventId,
        ...(record ? {} : { modifiedUtc: post.modifiedUtc }),
        representation: async () => (record ? this.objectOf(record, report) : children.representation(eventId, ctx)),
      });
      const result = await work(event, record);
      await children.changed(post);
      return [result, report] as const;
    });
    return this.objectOf(saved, parent);
  }

  /** A child write never puts a record outside its event, whatever the rule says of the event's moves. */
  private assertFits(record: AnyRecord, event: EventChildParent): void {
    const misfit = this.def.parent?.misfit(record, event) ?? null;
    if (misfit) throw RequestValidationError.of(misfit);
  }

  private objectOf(record: AnyRecord, parent: EventChildParent | null): Record<string, unknown> {
    const object = this.def.toObject(record, this.deps.siteTime.now().utc);
    if (!parent || !this.def.parent) return object;
    return { ...object, outside_event: this.def.parent.misfit(record, parent) !== null };
  }

  private async find(eventId: number, id: number): Promise<AnyRecord> {
    const record = await this.deps.db.manager.findOneBy(this.def.entity, { id, eventId });
    if (!record) throw new DomainError(this.notFound);
    return record;
  }
}
