import { Injectable, type OnModuleInit } from '@nestjs/common';
import { In } from 'typeorm';
import { SiteTime } from '../../src/common/dates/site-time';
import type { SqlCondition } from '../../src/core/posts/post-visibility';
import { DatabaseContext } from '../../src/database/database-context';
import {
  EventFieldRegistry,
  type EventField,
  EventListFilterRegistry,
  type EventListFilter,
} from '../../src/modules/events';
import { TicketEntity } from './ticket.entity';
import { onSale } from './ticket.rules';

/** The event's `tickets` member: how many kinds, whether any is on sale now, and when that may next change. */
export interface TicketSummary {
  count: number;
  on_sale: boolean;
  changes_utc: string | null;
}

/** The events' `tickets` summary (which turns with the clock as sales open and close) and `ticketed=`. */
@Injectable()
export class TicketSummaries implements EventField<TicketSummary>, EventListFilter, OnModuleInit {
  readonly name = 'tickets';
  readonly empty: TicketSummary = { count: 0, on_sale: false, changes_utc: null };
  readonly params = ['ticketed'] as const;

  constructor(
    private readonly db: DatabaseContext,
    private readonly fields: EventFieldRegistry,
    private readonly filters: EventListFilterRegistry,
    private readonly siteTime: SiteTime,
  ) {}

  onModuleInit(): void {
    this.fields.register(this);
    this.filters.register(this);
  }

  async valuesOf(eventIds: number[]): Promise<Map<number, TicketSummary>> {
    const nowUtc = this.siteTime.now().utc;
    const summaries = new Map<number, TicketSummary>();
    const tickets = eventIds.length === 0 ? [] : await this.db.manager.findBy(TicketEntity, { eventId: In(eventIds) });
    for (const t of tickets) {
      const s = summaries.get(t.eventId) ?? { count: 0, on_sale: false, changes_utc: null };
      const ahead = [t.saleStartUtc, t.saleEndUtc, s.changes_utc].filter((b): b is string => !!b && b > nowUtc).sort();
      summaries.set(t.eventId, {
        count: s.count + 1,
        on_sale: s.on_sale || onSale(t, nowUtc),
        changes_utc: ahead[0] ?? null,
      });
    }
    return summaries;
  }

  validUntil(value: TicketSummary): string | null {
    return value.changes_utc;
  }

  condition(query: Record<string, unknown>): SqlCondition | undefined {
    if (query.ticketed === undefined) return undefined;
    const exists = 'EXISTS (SELECT 1 FROM event_tickets tk WHERE tk.event_id = p.id)';
    return { sql: query.ticketed ? exists : `NOT ${exists}`, params: {} };
  }
}
