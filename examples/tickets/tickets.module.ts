import { Module } from '@nestjs/common';
import { EventChildResource, type EventChildResourceDefinition, objectSchema, WithMigrations } from '../../src/extend';
import { CreateTicketDto, UpdateTicketDto } from './ticket.dto';
import { TicketEntity } from './ticket.entity';
import { CreateEventTickets1790100000000 } from './ticket.migration';
import { applyTicket, ticketFitsEvent, ticketObject } from './ticket.rules';
import { TicketSummaries, UTC } from './ticket.summary';

/** Tickets of events: `/cal/events/v1/events/{id}/tickets`. */
export const TICKETS: EventChildResourceDefinition<TicketEntity, CreateTicketDto, UpdateTicketDto> = {
  path: 'tickets',
  noun: 'ticket',
  entity: TicketEntity,
  createDto: CreateTicketDto,
  updateDto: UpdateTicketDto,
  create: (eventId) => Object.assign(new TicketEntity(), { eventId }),
  apply: applyTicket,
  toObject: ticketObject,
  parent: ticketFitsEvent,
  texts: {
    en: { a: 'a ticket', many: 'tickets' },
    de: { a: 'ein Ticket', many: 'Tickets' },
    notFound: { en: 'The event has no such ticket.', de: 'Die Veranstaltung hat kein solches Ticket.' },
  },
  openApi: {
    schema: objectSchema({
      id: { type: 'integer' },
      event_id: { type: 'integer' },
      name: { type: 'string' },
      price: { type: 'string' },
      capacity: { type: 'integer', nullable: true },
      sale_start: UTC,
      sale_end: UTC,
      on_sale: { type: 'boolean' },
    }),
    examples: { create: { name: 'Standard', price: '15€', capacity: 200 }, update: { price: '18€' } },
  },
};

/** Tickets as a child resource of events, the events' `tickets` member and the contract's `ticketed=` filter. */
@EventChildResource(TICKETS)
@WithMigrations(CreateEventTickets1790100000000)
@Module({ providers: [TicketSummaries] })
export class TicketsModule {}
