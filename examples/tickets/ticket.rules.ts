import { defineReason, type EventChildParentRule, parseDateInput, reason } from '../../src/extend';
import type { UpdateTicketDto } from './ticket.dto';
import { TicketEntity } from './ticket.entity';

const SALE_END_BEFORE_START = defineReason('sale_end_before_start', {
  en: 'must not be before sale_start',
  de: 'darf nicht vor sale_start liegen',
});

const SALES_END_AFTER_EVENT = defineReason('sale_end_after_event', {
  en: 'must not be after the event ends',
  de: 'darf nicht nach dem Ende der Veranstaltung liegen',
});

const utcOf = (value: string | undefined): string | null | undefined =>
  value === undefined ? undefined : (parseDateInput(value, 'UTC')?.toUTC().toFormat('yyyy-MM-dd HH:mm:ss') ?? null);

/** Whether the ticket is on sale at `nowUtc`. */
export const onSale = (t: TicketEntity, nowUtc: string): boolean =>
  (t.saleStartUtc === null || t.saleStartUtc <= nowUtc) && (t.saleEndUtc === null || nowUtc < t.saleEndUtc);

/** A write's fields on the ticket (whether its sales fit, {@link ticketFitsEvent} says). */
export function applyTicket(ticket: TicketEntity, dto: UpdateTicketDto): void {
  if (dto.name !== undefined) ticket.name = dto.name.trim();
  if (dto.price !== undefined) ticket.price = dto.price.trim();
  if (dto.capacity !== undefined) ticket.capacity = dto.capacity;
  ticket.saleStartUtc = utcOf(dto.sale_start) ?? ticket.saleStartUtc;
  ticket.saleEndUtc = utcOf(dto.sale_end) ?? ticket.saleEndUtc;
}

/**
 * Sales close after they open and by the time the event ends: a ticket write that breaks either, or a move of
 * the event before the close, is refused.
 */
export const ticketFitsEvent: EventChildParentRule<TicketEntity> = {
  misfit: ({ saleStartUtc: start, saleEndUtc: end }, event) => {
    if (start && end && end < start) return { sale_end: reason(SALE_END_BEFORE_START) };
    return end !== null && end > event.endUtc ? { sale_end: reason(SALES_END_AFTER_EVENT) } : null;
  },
  whenEventMoves: 'refuse',
};

export const ticketObject = (t: TicketEntity, nowUtc: string): Record<string, unknown> => ({
  id: t.id,
  event_id: t.eventId,
  name: t.name,
  price: t.price,
  capacity: t.capacity,
  sale_start: t.saleStartUtc,
  sale_end: t.saleEndUtc,
  on_sale: onSale(t, nowUtc),
});
