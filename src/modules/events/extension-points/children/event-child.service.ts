import type { ObjectLiteral } from 'typeorm';
import { SiteTime } from '../../../../common/dates/site-time';
import { DomainError } from '../../../../common/errors/domain-error';
import type { ExtensionErrorKey } from '../../../../common/errors/extension-errors';
import type { RequestContext } from '../../../../common/http/request-context';
import { postErrors } from '../../../../core/posts/post-errors';
import {
  buildListResponse,
  isBeyondLastPage,
  resolvePageRequest,
  type ListResponse,
} from '../../../../common/pagination/pagination';
import type { PaginationQueryDto } from '../../../../common/pagination/pagination-query.dto';
import { AppConfig } from '../../../../config/app-config';
import { DatabaseContext } from '../../../../database/database-context';
import { WriteTransactions } from '../../../../database/write-transactions';
import { EventChildren } from './event-children';
import { EVENT_POST_TYPE } from '../../model/event.post-type';
import type { EventChildEntity, EventChildResourceDefinition } from './event-child-resource';

type AnyDefinition = EventChildResourceDefinition<EventChildEntity & ObjectLiteral, object, object>;

/** The records of one child resource, as its routes read and write them. */
export class EventChildService {
  constructor(
    private readonly def: AnyDefinition,
    private readonly notFound: ExtensionErrorKey,
    private readonly db: DatabaseContext,
    private readonly transactions: WriteTransactions,
    private readonly children: EventChildren,
    private readonly siteTime: SiteTime,
    private readonly config: AppConfig,
  ) {}

  async list(eventId: number, query: PaginationQueryDto, ctx: RequestContext): Promise<ListResponse> {
    await this.children.readable(eventId, ctx);
    const page = resolvePageRequest(query.page, query.per_page, this.config.maxPerPage);
    const [records, total] = await this.db.manager.findAndCount(this.def.entity, {
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
    const nowUtc = this.siteTime.now().utc;
    return buildListResponse({
      key: this.def.path,
      items: records.map((r) => this.def.toObject(r, nowUtc)),
      total,
      page,
      collectionUrl: `${ctx.namespaceUrl}/events/${eventId}/${this.def.path}`,
      query: {},
    });
  }

  async get(eventId: number, id: number, ctx: RequestContext): Promise<object> {
    await this.children.readable(eventId, ctx);
    return this.def.toObject(await this.find(eventId, id), this.siteTime.now().utc);
  }

  create(eventId: number, dto: object, ctx: RequestContext): Promise<object> {
    return this.write(eventId, ctx, async () => {
      const record = this.def.create(eventId);
      this.def.apply(record, dto);
      return this.db.manager.save(record);
    });
  }

  update(eventId: number, id: number, dto: object, ctx: RequestContext): Promise<object> {
    return this.write(eventId, ctx, async () => {
      const record = await this.find(eventId, id);
      this.def.apply(record, dto);
      return this.db.manager.save(record);
    });
  }

  delete(eventId: number, id: number, ctx: RequestContext): Promise<object> {
    return this.write(eventId, ctx, async () => {
      const record = await this.find(eventId, id);
      await this.db.manager.delete(this.def.entity, { id: record.id });
      return record;
    });
  }

  /** The event's edit rule, then the work, in one transaction that marks the event changed. */
  private async write(
    eventId: number,
    ctx: RequestContext,
    work: () => Promise<EventChildEntity & ObjectLiteral>,
  ): Promise<object> {
    const record = await this.transactions.run(async () => {
      await this.children.editable(eventId, ctx);
      return work();
    });
    return this.def.toObject(record, this.siteTime.now().utc);
  }

  private async find(eventId: number, id: number): Promise<EventChildEntity & ObjectLiteral> {
    const record = await this.db.manager.findOneBy(this.def.entity, { id, eventId });
    if (!record) throw new DomainError(this.notFound);
    return record;
  }
}
