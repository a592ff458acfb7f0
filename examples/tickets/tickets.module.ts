import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { responseSchemaRegistry } from '../../src/common/http/response-schema-registry';
import { WithMigrations } from '../../src/database/module-migrations';
import { EventsModule } from '../../src/modules/events/events.module';
import { declareEventField } from '../../src/modules/events/links/event-field';
import { TicketEntity } from './ticket.entity';
import { CreateEventTickets1790100000000 } from './ticket.migration';
import { TicketsController } from './tickets.controller';
import { TicketsService } from './tickets.service';

const UTC = { type: 'string', nullable: true, example: '2031-05-01 18:00:00' };

declareEventField({
  name: 'tickets',
  schema: {
    type: 'object',
    properties: { count: { type: 'integer' }, on_sale: { type: 'boolean' }, changes_utc: UTC },
    required: ['count', 'on_sale', 'changes_utc'],
    additionalProperties: false,
  },
});
responseSchemaRegistry.addResource({
  path: 'events/{id}/tickets',
  item: 'Ticket',
  list: 'TicketList',
  listKey: 'tickets',
  schemas: {
    Ticket: {
      type: 'object',
      properties: {
        id: { type: 'integer' },
        event_id: { type: 'integer' },
        name: { type: 'string' },
        price: { type: 'string' },
        capacity: { type: 'integer', nullable: true },
        sale_start: UTC,
        sale_end: UTC,
        on_sale: { type: 'boolean' },
      },
      required: ['id', 'event_id', 'name', 'price', 'capacity', 'sale_start', 'sale_end', 'on_sale'],
      additionalProperties: false,
    },
  },
  examples: { create: { name: 'Standard', price: '15€', capacity: 200 }, update: { price: '18€' } },
});

/** Tickets of events: `/cal/events/v1/events/{id}/tickets`, the events' `tickets` member, `ticketed=`. */
@WithMigrations(CreateEventTickets1790100000000)
@Module({
  imports: [EventsModule, TypeOrmModule.forFeature([TicketEntity])],
  controllers: [TicketsController],
  providers: [TicketsService],
})
export class TicketsModule {}
