import { Injectable, type OnModuleInit } from '@nestjs/common';
import { In } from 'typeorm';
import { SiteTime } from '../../src/common/dates/site-time';
import { parseDateInput } from '../../src/common/dates/date-input';
import { DomainError } from '../../src/common/errors/domain-error';
import { defineError } from '../../src/common/errors/extension-errors';
import type { RequestContext } from '../../src/common/http/request-context';
import {
  buildListResponse,
  isBeyondLastPage,
  resolvePageRequest,
  type ListResponse,
} from '../../src/common/pagination/pagination';
import type { PaginationQueryDto } from '../../src/common/pagination/pagination-query.dto';
import { RequestValidationError } from '../../src/common/validation/request-validation.error';
import { defineReason, reason } from '../../src/common/validation/validation-messages';
import { AppConfig } from '../../src/config/app-config';
import type { SqlCondition } from '../../src/core/posts/post-visibility';
import { DatabaseContext } from '../../src/database/database-context';
import { WriteTransactions } from '../../src/database/write-transactions';
import { EventChildren } from '../../src/modules/events/event-children';
import { EventFieldRegistry, type EventField } from '../../src/modules/events/links/event-field';
import { EventListFilterRegistry, type EventListFilter } from '../../src/modules/events/links/event-list-filter';
import type { CreateTicketDto, UpdateTicketDto } from './ticket.dto';
import { TicketEntity } from './ticket.entity';

/** The event's `tickets` member: how many kinds, whether any is on sale now, and when that may next change. */
export interface TicketSummary {
  count: number;
  on_sale: boolean;
  changes_utc: string | null;
}

const TICKET_NOT_FOUND = defineError('ticket_not_found', {
  status: 404,
  code: 'rest-ticket-not-found',
  message: { en: 'The event has no such ticket.', de: 'Die Veranstaltung hat kein solches Ticket.' },
});
const TICKET_PAGE_NOT_FOUND = defineError('ticket_archive_page_not_found', {
  status: 404,
  code: 'ticket-archive-page-not-found',
  message: {
    en: 'The page number requested is larger than the number of pages available.',
    de: 'Die angeforderte Seite gibt es nicht.',
  },
});
const SALE_END_BEFORE_START = defineReason('sale_end_before_start', {
  en: 'must not be before sale_start',
  de: 'darf nicht vor sale_start liegen',
});

const utcOf = (value: string | undefined): string | null | undefined =>
  value === undefined ? undefined : (parseDateInput(value, 'UTC')?.toUTC().toFormat('yyyy-MM-dd HH:mm:ss') ?? null);
const onSale = (t: TicketEntity, nowUtc: string) =>
  (t.saleStartUtc === null || t.saleStartUtc <= nowUtc) && (t.saleEndUtc === null || nowUtc < t.saleEndUtc);

/**
 * Tickets: a child resource of events with its own table, the events' `tickets` summary (which turns with
 * the clock as sales open and close) and the contract's `ticketed` list filter.
 */
@Injectable()
export class TicketsService implements EventField<TicketSummary>, EventListFilter, OnModuleInit {
  readonly name = 'tickets';
  readonly empty: TicketSummary = { count: 0, on_sale: false, changes_utc: null };
  readonly params = ['ticketed'] as const;

  constructor(
    private readonly db: DatabaseContext,
    private readonly transactions: WriteTransactions,
    private readonly children: EventChildren,
    private readonly fields: EventFieldRegistry,
    private readonly filters: EventListFilterRegistry,
    private readonly siteTime: SiteTime,
    private readonly config: AppConfig,
  ) {}

  onModuleInit(): void {
    this.fields.register(this);
    this.filters.register(this);
  }

  async valuesOf(eventIds: number[]): Promise<Map<number, TicketSummary>> {
    if (eventIds.length === 0) return new Map();
    const nowUtc = this.siteTime.now().utc;
    const byEvent = new Map<number, TicketEntity[]>();
    for (const t of await this.db.manager.findBy(TicketEntity, { eventId: In(eventIds) }))
      byEvent.set(t.eventId, [...(byEvent.get(t.eventId) ?? []), t]);
    return new Map(
      [...byEvent].map(([eventId, tickets]) => {
        const ahead = tickets.flatMap((t) => [t.saleStartUtc, t.saleEndUtc]).filter((b) => b !== null && b > nowUtc);
        const changes = ahead.length === 0 ? null : ahead.reduce((a, b) => (a! < b! ? a : b));
        return [
          eventId,
          { count: tickets.length, on_sale: tickets.some((t) => onSale(t, nowUtc)), changes_utc: changes },
        ];
      }),
    );
  }

  validUntil(value: TicketSummary): string | null {
    return value.changes_utc;
  }

  condition(query: Record<string, unknown>): SqlCondition | undefined {
    if (query.ticketed === undefined) return undefined;
    const exists = 'EXISTS (SELECT 1 FROM event_tickets tk WHERE tk.event_id = p.id)';
    return { sql: query.ticketed ? exists : `NOT ${exists}`, params: {} };
  }

  async list(eventId: number, query: PaginationQueryDto, ctx: RequestContext): Promise<ListResponse> {
    await this.children.readable(eventId, ctx);
    const page = resolvePageRequest(query.page, query.per_page, this.config.maxPerPage);
    const [tickets, total] = await this.db.manager.findAndCount(TicketEntity, {
      where: { eventId },
      order: { id: 'ASC' },
      skip: page.offset,
      take: page.perPage,
    });
    if (isBeyondLastPage(page, total)) throw new DomainError(TICKET_PAGE_NOT_FOUND);
    const nowUtc = this.siteTime.now().utc;
    return buildListResponse({
      key: 'tickets',
      items: tickets.map((t) => this.toObject(t, nowUtc)),
      total,
      page,
      collectionUrl: `${ctx.namespaceUrl}/events/${eventId}/tickets`,
      query: {},
    });
  }

  async get(eventId: number, ticketId: number, ctx: RequestContext): Promise<object> {
    await this.children.readable(eventId, ctx);
    return this.toObject(await this.find(eventId, ticketId), this.siteTime.now().utc);
  }

  create(eventId: number, dto: CreateTicketDto, ctx: RequestContext): Promise<object> {
    return this.write(eventId, ctx, async () => {
      const ticket = Object.assign(new TicketEntity(), {
        eventId,
        price: '',
        capacity: null,
        saleStartUtc: null,
        saleEndUtc: null,
      });
      return this.db.manager.save(this.apply(ticket, dto));
    });
  }

  update(eventId: number, ticketId: number, dto: UpdateTicketDto, ctx: RequestContext): Promise<object> {
    return this.write(eventId, ctx, async () =>
      this.db.manager.save(this.apply(await this.find(eventId, ticketId), dto)),
    );
  }

  delete(eventId: number, ticketId: number, ctx: RequestContext): Promise<object> {
    return this.write(eventId, ctx, async () => {
      const ticket = await this.find(eventId, ticketId);
      await this.db.manager.delete(TicketEntity, { id: ticket.id });
      return ticket;
    });
  }

  /** A ticket write: the event's edit rule, then the work, in one transaction that marks the event changed. */
  private async write(eventId: number, ctx: RequestContext, work: () => Promise<TicketEntity>): Promise<object> {
    const ticket = await this.transactions.run(async () => {
      await this.children.editable(eventId, ctx);
      return work();
    });
    return this.toObject(ticket, this.siteTime.now().utc);
  }

  private apply(ticket: TicketEntity, dto: UpdateTicketDto): TicketEntity {
    if (dto.name !== undefined) ticket.name = dto.name.trim();
    if (dto.price !== undefined) ticket.price = dto.price.trim();
    if (dto.capacity !== undefined) ticket.capacity = dto.capacity;
    ticket.saleStartUtc = utcOf(dto.sale_start) ?? ticket.saleStartUtc;
    ticket.saleEndUtc = utcOf(dto.sale_end) ?? ticket.saleEndUtc;
    if (ticket.saleStartUtc && ticket.saleEndUtc && ticket.saleEndUtc < ticket.saleStartUtc)
      throw RequestValidationError.of({ sale_end: reason(SALE_END_BEFORE_START) });
    return ticket;
  }

  private async find(eventId: number, ticketId: number): Promise<TicketEntity> {
    const ticket = await this.db.manager.findOneBy(TicketEntity, { id: ticketId, eventId });
    if (!ticket) throw new DomainError(TICKET_NOT_FOUND);
    return ticket;
  }

  private toObject(t: TicketEntity, nowUtc: string): object {
    return {
      id: t.id,
      event_id: t.eventId,
      name: t.name,
      price: t.price,
      capacity: t.capacity,
      sale_start: t.saleStartUtc,
      sale_end: t.saleEndUtc,
      on_sale: onSale(t, nowUtc),
    };
  }
}
