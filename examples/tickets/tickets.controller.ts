import { Body, Delete, Get, Post, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { NAMESPACE } from '../../src/common/http/namespace';
import { Ctx, type RequestContext } from '../../src/common/http/request-context';
import { PathId, RestController, UpdateRoute } from '../../src/common/http/rest-routes';
import type { ListResponse } from '../../src/common/pagination/pagination';
import { PaginationQueryDto } from '../../src/common/pagination/pagination-query.dto';
import { RequiresCapability } from '../../src/auth/requires-capability.decorator';
import { CreateTicketDto, UpdateTicketDto } from './ticket.dto';
import { TicketsService } from './tickets.service';

const EVENT = { en: 'The event ID.', de: 'Die ID der Veranstaltung.' };
const TICKET = { en: 'The ticket ID.', de: 'Die ID des Tickets.' };

/**
 * `/events/{id}/tickets`: read as the event is read, written by whoever may edit the event (a ticket write is
 * an edit of its event, so deleting one needs `edit_posts`, not `delete_posts`).
 */
@ApiTags('tickets')
@RestController(`${NAMESPACE}/events/:id/tickets`)
export class TicketsController {
  constructor(private readonly tickets: TicketsService) {}

  @Get()
  @ApiOperation({ summary: 'List the tickets of an event.' })
  list(
    @PathId(EVENT) id: number,
    @Query() query: PaginationQueryDto,
    @Ctx() ctx: RequestContext,
  ): Promise<ListResponse> {
    return this.tickets.list(id, query, ctx);
  }

  @Post()
  @RequiresCapability('edit_posts', 'event')
  @ApiOperation({ summary: 'Add a ticket to an event.' })
  create(@PathId(EVENT) id: number, @Body() dto: CreateTicketDto, @Ctx() ctx: RequestContext): Promise<object> {
    return this.tickets.create(id, dto, ctx);
  }

  @Get(':ticket')
  @ApiOperation({ summary: 'Read a ticket.' })
  get(@PathId(EVENT) id: number, @PathId(TICKET, 'ticket') ticket: number, @Ctx() ctx: RequestContext) {
    return this.tickets.get(id, ticket, ctx);
  }

  @UpdateRoute(':ticket')
  @RequiresCapability('edit_posts', 'event')
  @ApiOperation({ summary: 'Change a ticket.' })
  update(
    @PathId(EVENT) id: number,
    @PathId(TICKET, 'ticket') ticket: number,
    @Body() dto: UpdateTicketDto,
    @Ctx() ctx: RequestContext,
  ): Promise<object> {
    return this.tickets.update(id, ticket, dto, ctx);
  }

  @Delete(':ticket')
  @RequiresCapability('edit_posts', 'event')
  @ApiOperation({ summary: 'Delete a ticket.' })
  delete(@PathId(EVENT) id: number, @PathId(TICKET, 'ticket') ticket: number, @Ctx() ctx: RequestContext) {
    return this.tickets.delete(id, ticket, ctx);
  }
}
