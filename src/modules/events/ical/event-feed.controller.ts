import { Get, Query, Req } from '@nestjs/common';
import { foregroundRequests } from '../../../common/background/foreground-requests';
import { ApiOperation, ApiProduces, ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import { docText } from '../../../common/i18n/doc-text';
import { NAMESPACE } from '../../../common/http/namespace';
import { Ctx, type RequestContext } from '../../../common/http/request-context';
import { PathId, RestController } from '../../../common/http/rest-routes';
import { byId } from '../../../core/posts/post-ref';
import { ListEventsQueryDto } from '../rest/dto/list-events-query.dto';
import { ReadEventQueryDto } from '../rest/dto/read-event-query.dto';
import { EventFeedService, type FeedRequest } from './event-feed.service';

/** What a feed needs of the HTTP request: the caller, the URL and the client's validators. */
export function feedRequestOf(req: Request, ctx: RequestContext): FeedRequest {
  const header = (name: string) => {
    const value = req.headers[name];
    return typeof value === 'string' ? value : undefined;
  };
  return {
    ctx,
    url: req.originalUrl,
    ifNoneMatch: header('if-none-match'),
    ifModifiedSince: header('if-modified-since'),
    closed: new Promise<void>((resolve) => req.res?.once('close', () => resolve())),
    toBackground: () => foregroundRequests.toBackground(req),
  };
}

/**
 * iCalendar feeds (docs/calendar-clients.md). Registered before `EventsController`, whose `events/:id`
 * would otherwise take `events/5.ics`. `GET /events` with `Accept: text/calendar` answers the same feed.
 */
@ApiTags('events')
@RestController(NAMESPACE)
export class EventFeedController {
  constructor(private readonly feeds: EventFeedService) {}

  @Get('events.ics')
  @ApiProduces('text/calendar')
  @ApiOperation({
    summary: docText({
      en: 'Events as an iCalendar feed, with the filters of the list.',
      de: 'Veranstaltungen als iCalendar-Feed, mit den Filtern der Liste.',
    }),
  })
  list(@Query() query: ListEventsQueryDto, @Ctx() ctx: RequestContext, @Req() req: Request): Promise<Response> {
    return this.feeds.list(query, feedRequestOf(req, ctx));
  }

  @Get('events/:id.ics')
  @ApiProduces('text/calendar')
  @ApiOperation({
    summary: docText({ en: 'One event as iCalendar.', de: 'Eine Veranstaltung als iCalendar.' }),
  })
  single(
    @PathId({ en: 'Unique identifier of the event.', de: 'Eindeutige ID der Veranstaltung.' }) id: number,
    @Query() query: ReadEventQueryDto,
    @Ctx() ctx: RequestContext,
    @Req() req: Request,
  ): Promise<Response> {
    return this.feeds.single(byId(id), query.password, feedRequestOf(req, ctx));
  }
}
