import { Injectable } from '@nestjs/common';
import { In } from 'typeorm';
import {
  DatabaseContext,
  EventFilter,
  type EventFilterSource,
  EventMember,
  type EventMemberSource,
  objectSchema,
  SiteTime,
  type SqlCondition,
} from '../../src/extend';
import { TicketEntity } from './ticket.entity';
import { onSale } from './ticket.rules';

/** The event's `tickets` member: how many kinds, whether any is on sale now, and when that may next change. */
export interface TicketSummary {
  count: number;
  on_sale: boolean;
  changes_utc: string | null;
}

/** A UTC instant or none, as the ticket's and the summary's schemas show it. */
export const UTC = { type: 'string', nullable: true, example: '2031-05-01 18:00:00' };

/** The events' `tickets` summary (which turns with the clock as sales open and close) and `ticketed=`. */
@EventMember({
  name: 'tickets',
  schema: objectSchema({ count: { type: 'integer' }, on_sale: { type: 'boolean' }, changes_utc: UTC }),
})
@EventFilter({ params: { ticketed: null } })
@Injectable()
export class TicketSummaries implements EventMemberSource<TicketSummary>, EventFilterSource {
  readonly empty: TicketSummary = { count: 0, on_sale: false, changes_utc: null };

  constructor(
    private readonly db: DatabaseContext,
    private readonly siteTime: SiteTime,
  ) {}

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
