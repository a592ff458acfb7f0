import type { DeletedRecord } from '../../../core/posts/deleted-record';
import { Body, Delete, Get, Param, Post, Query, Req } from '@nestjs/common';
import type { Request } from 'express';
import { CachedRead } from '../../../common/http/response-cache/cached-read.decorator';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { RequiresCapability } from '../../../auth/requires-capability.decorator';
import { docText } from '../../../common/i18n/doc-text';
import { NAMESPACE } from '../../../common/http/namespace';
import type { PreparedRecordJson } from '../../../common/http/prepared-json';
import { Ctx, type RequestContext } from '../../../common/http/request-context';
import { PathId, PathSlug, RestController, UpdateRoute } from '../../../common/http/rest-routes';
import type { ListResponse } from '../../../common/pagination/pagination';
import { PaginationQueryDto } from '../../../common/pagination/pagination-query.dto';
import { byId, bySlug } from '../../../core/posts/post-ref';
import { CreateEventDto } from './dto/create-event.dto';
import { DeleteEventQueryDto } from './dto/delete-event-query.dto';
import { ListEventsQueryDto } from './dto/list-events-query.dto';
import { ReadEventQueryDto } from './dto/read-event-query.dto';
import { SeriesScopeQueryDto } from './dto/series-scope-query.dto';
import { UpdateEventDto } from './dto/update-event.dto';
import type { EventObject } from '../model/event.mapper';
import { EventWritesService } from './event-writes.service';
import { EventsQueryService } from './events-query.service';
import { feedRequestOf } from '../ical/event-feed.controller';
import { EventFeedService } from '../ical/event-feed.service';
import { EVENT_POST_TYPE } from '../model/event.post-type';

const EVENT_ID = { en: 'Unique identifier of the event.', de: 'Eindeutige ID der Veranstaltung.' };
const EVENT_SLUG = { en: 'The event slug.', de: 'Der Slug der Veranstaltung.' };

@ApiTags('events')
@RestController(`${NAMESPACE}/events`)
export class EventsController {
  constructor(
    private readonly events: EventsQueryService,
    private readonly writes: EventWritesService,
    private readonly feeds: EventFeedService,
  ) {}

  @Get()
  @CachedRead()
  @ApiOperation({ summary: docText({ en: 'List events.', de: 'Veranstaltungen auflisten.' }) })
  list(
    @Query() query: ListEventsQueryDto,
    @Ctx() ctx: RequestContext,
    @Req() req: Request,
  ): Promise<ListResponse | Response> {
    // Calendar clients may ask the list itself for iCalendar (Accept: text/calendar, preferred over JSON).
    if (
      req.headers.accept?.includes('text/calendar') &&
      req.accepts(['application/json', 'text/calendar']) === 'text/calendar'
    ) {
      return this.feeds.list(query, feedRequestOf(req, ctx));
    }
    return this.events.list(query, ctx);
  }

  @Post()
  @RequiresCapability('edit_posts', 'event')
  @ApiOperation({ summary: docText({ en: 'Create an event.', de: 'Eine Veranstaltung anlegen.' }) })
  create(@Body() dto: CreateEventDto, @Ctx() ctx: RequestContext): Promise<EventObject> {
    return this.writes.create(dto, ctx);
  }

  // Before `:id`, which would take `hidden` for an id.
  @Get('hidden')
  @CachedRead()
  @ApiOperation({
    summary: docText({
      en: 'List the events hidden from listings (hide_from_listings) that the caller may see, of any date, by ID: with the lists, what a mirror needs to hold every visible event.',
      de: 'Die aus Listen ausgeblendeten Veranstaltungen (hide_from_listings), die der Aufrufer sehen darf, jeden Datums, nach ID: mit den Listen, was ein Spiegel für jede sichtbare Veranstaltung braucht.',
    }),
  })
  listHidden(@Query() query: PaginationQueryDto, @Ctx() ctx: RequestContext): Promise<ListResponse> {
    return this.events.listHidden(query, ctx);
  }

  @Get(':id')
  @CachedRead({ resource: EVENT_POST_TYPE.noun })
  @ApiOperation({ summary: docText({ en: 'Read an event.', de: 'Eine Veranstaltung lesen.' }) })
  get(
    @PathId(EVENT_ID) id: number,
    @Query() query: ReadEventQueryDto,
    @Ctx() ctx: RequestContext,
  ): Promise<EventObject | PreparedRecordJson> {
    return this.events.answer(byId(id), query.password, ctx);
  }

  @UpdateRoute(':id')
  @RequiresCapability('edit_posts', 'event')
  @ApiOperation({ summary: docText({ en: 'Update an event.', de: 'Eine Veranstaltung ändern.' }) })
  update(
    @PathId(EVENT_ID) id: number,
    @Body() dto: UpdateEventDto,
    @Query() query: SeriesScopeQueryDto,
    @Ctx() ctx: RequestContext,
  ): Promise<EventObject> {
    return this.writes.update(byId(id), dto, ctx, query.scope);
  }

  @Delete(':id')
  @RequiresCapability('delete_posts', 'event')
  @ApiOperation({ summary: docText({ en: 'Trash or delete an event.', de: 'Eine Veranstaltung löschen.' }) })
  delete(
    @PathId(EVENT_ID) id: number,
    @Query() query: DeleteEventQueryDto,
    @Ctx() ctx: RequestContext,
  ): Promise<EventObject | DeletedRecord<EventObject>> {
    return this.writes.delete(byId(id), query.force ?? false, ctx, query.scope);
  }

  @Get('by-slug/:slug')
  @CachedRead({ resource: EVENT_POST_TYPE.noun })
  @PathSlug(EVENT_SLUG)
  @ApiOperation({ summary: docText({ en: 'Read an event by slug.', de: 'Eine Veranstaltung per Slug lesen.' }) })
  getBySlug(@Param('slug') slug: string, @Ctx() ctx: RequestContext): Promise<EventObject | PreparedRecordJson> {
    return this.events.answer(bySlug(slug), undefined, ctx);
  }

  @UpdateRoute('by-slug/:slug')
  @PathSlug(EVENT_SLUG)
  @RequiresCapability('edit_posts', 'event')
  @ApiOperation({ summary: docText({ en: 'Update an event by slug.', de: 'Eine Veranstaltung per Slug ändern.' }) })
  updateBySlug(
    @Param('slug') slug: string,
    @Body() dto: UpdateEventDto,
    @Query() query: SeriesScopeQueryDto,
    @Ctx() ctx: RequestContext,
  ): Promise<EventObject> {
    return this.writes.update(bySlug(slug), dto, ctx, query.scope);
  }

  @Delete('by-slug/:slug')
  @PathSlug(EVENT_SLUG)
  @RequiresCapability('delete_posts', 'event')
  @ApiOperation({
    summary: docText({ en: 'Trash or delete an event by slug.', de: 'Eine Veranstaltung per Slug löschen.' }),
  })
  deleteBySlug(
    @Param('slug') slug: string,
    @Query() query: DeleteEventQueryDto,
    @Ctx() ctx: RequestContext,
  ): Promise<EventObject | DeletedRecord<EventObject>> {
    return this.writes.delete(bySlug(slug), query.force ?? false, ctx, query.scope);
  }
}
