import { Injectable } from '@nestjs/common';
import fresh from 'fresh';
import { DateTime } from 'luxon';
import { createHash } from 'node:crypto';
import { ReadableStream } from 'node:stream/web';
import { SiteTime } from '../../../common/dates/site-time';
import { DomainError } from '../../../common/errors/domain-error';
import type { RequestContext } from '../../../common/http/request-context';
import { AppConfig } from '../../../config/app-config';
import type { PostRef } from '../../../core/posts/post-ref';
import { ContentVersion } from '../../../database/content-version';
import { ChangeHeads } from '../../../core/changes/change-heads';
import type { ListEventsQueryDto } from '../rest/dto/list-events-query.dto';
import { EventDocuments } from '../derived/documents/event-documents.service';
import { EventsQueryService } from '../rest/events-query.service';
import { EventArchive } from '../archive/event-archive';
import { FeedTurns } from './feed-turns';
import { feedFingerprint, FeedFingerprints } from './feed-fingerprints';
import { siteHostOf } from '../../../core/posts/post.mapper';
import { hasVtimezone, spanOf, type ZoneSpan } from './vtimezones';
import { FeedBody } from './feed-body';

export { FEED_CHUNK } from './feed-body';

/** Retry-After of a feed refused because too many are being written (`ICAL_CONCURRENT_FEEDS`). */
const FEEDS_BUSY_RETRY_SECONDS = 5;

/** What a feed request brings besides its filters: who asks, and what the client already holds. */
export interface FeedRequest {
  ctx: RequestContext;
  /** Path and query as requested: feeds with other parameters are other feeds. */
  url: string;
  ifNoneMatch?: string;
  ifModifiedSince?: string;
  /** Resolves when the response is done or its client went away: a feed's turn ends then at the latest. */
  closed?: Promise<void>;
  /** Called as the body starts to stream: from then on, the feed gives requests in flight their turn first. */
  toBackground?: () => void;
}

/** What a feed's validators are computed from; equal inputs give equal bytes. */
interface FeedState {
  versionKey: string;
  volatile: boolean;
  /** Latest of the content's last change and anything else the answer depends on (UTC SQL times). */
  changedUtc: (string | null | undefined)[];
  /** What else makes two answers differ (the resolved date window). */
  extra: unknown;
}

/** Each zone a VTIMEZONE can describe, with the years of its events, in name order (stable bytes). */
function zoneSpans(events: { timezone: string; startUtc: string; endUtc: string }[]): Map<string, ZoneSpan> {
  const times = new Map<string, string[]>();
  for (const { timezone, startUtc, endUtc } of events) {
    if (!hasVtimezone(timezone)) continue;
    const list = times.get(timezone) ?? [];
    list.push(startUtc, endUtc);
    times.set(timezone, list);
  }
  return new Map([...times].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([zone, t]) => [zone, spanOf(t)]));
}

const latest = (times: (string | null | undefined)[]): string | undefined =>
  times
    .filter((t): t is string => typeof t === 'string' && t !== '')
    .sort()
    .at(-1);

/**
 * iCalendar (RFC 5545) feeds of events: the list's filters and visibility (the same archive filter, the same
 * `EventArchive` and event objects as `GET /events`), every matching event up to `ICAL_MAX_EVENTS`, streamed in chunks of
 * {@link FEED_CHUNK}. Validators make polling cheap: a weak ETag from the content version and the request,
 * and Last-Modified from when the content last changed (docs/calendar-clients.md).
 */
@Injectable()
export class EventFeedService {
  constructor(
    private readonly queries: EventsQueryService,
    private readonly archive: EventArchive,
    private readonly version: ContentVersion,
    private readonly siteTime: SiteTime,
    private readonly config: AppConfig,
    private readonly heads: ChangeHeads,
    private readonly documents: EventDocuments,
    private readonly body: FeedBody,
  ) {
    this.turns = new FeedTurns(config.icalConcurrentFeeds);
  }

  private readonly fingerprints = new FeedFingerprints();

  /** Turns at writing feeds (`ICAL_CONCURRENT_FEEDS`); public for what watches them. */
  readonly turns: FeedTurns;

  async list(query: ListEventsQueryDto, request: FeedRequest): Promise<Response> {
    const { ctx } = request;
    const { filter, window } = await this.queries.archiveFilter(query, ctx);
    // Read before the data, so the validators never claim newer content than the answer holds.
    const snapshot = await this.version.current(this.siteTime.now().utc);
    // A defaulted bound moves at the site's midnight: the answer may change then without a write.
    const defaulted = !query.include && (query.start_date === undefined || query.end_date === undefined);
    const midnight = this.siteTime
      .instant()
      .setZone(this.siteTime.zone)
      .startOf('day')
      .toUTC()
      .toSQL({ includeOffset: false });
    const state: FeedState = {
      versionKey: snapshot.key,
      volatile: snapshot.volatile,
      changedUtc: [snapshot.changedUtc, defaulted ? midnight : null],
      extra: window ?? null,
    };
    // The ETag is the feed's own content (FeedFingerprints): a write elsewhere leaves it as it is. Known for
    // this content version, a poll is answered without reading events or waiting for a turn.
    const feedKey = this.feedKey(request, state);
    const known = state.volatile ? undefined : this.fingerprints.get(snapshot.key, feedKey);
    if (known !== undefined) {
      const { headers, current } = this.validators(request, 'events.ics', state, known);
      if (current) return new Response(null, { status: 304, headers });
    }
    const release = await this.turns.take();
    if (!release) throw new DomainError('feeds_busy', { headers: { 'Retry-After': String(FEEDS_BUSY_RETRY_SECONDS) } });
    void request.closed?.then(release);
    try {
      const max = this.config.icalMaxEvents;
      const entries = await this.archive.entries(filter, max + 1);
      if (entries.length > max) throw new DomainError('feed_too_large', { args: { max } });
      const fingerprint = feedFingerprint(feedKey, entries);
      if (!state.volatile) this.fingerprints.set(snapshot.key, feedKey, fingerprint);
      const { headers, current } = this.validators(request, 'events.ics', state, fingerprint);
      if (current) {
        release();
        return new Response(null, { status: 304, headers });
      }
      const zones = zoneSpans(entries.filter((e) => !e.allDay));
      request.toBackground?.();
      return this.stream(headers, this.body.chunks(filter, entries, zones, ctx), release);
    } catch (error) {
      release();
      throw error;
    }
  }

  /** Everything but the events that makes two feeds' bytes differ: who asks, how, and this build. */
  private feedKey(request: FeedRequest, state: FeedState): string {
    const { ctx } = request;
    return JSON.stringify([
      ctx.user ? `${ctx.user.id}:${ctx.user.role}` : '-',
      ctx.language,
      ctx.namespaceUrl,
      // The UIDs' host (SiteIdentity), which the namespace URL need not name.
      siteHostOf(ctx),
      request.url,
      state.extra,
      this.siteTime.zone,
      // The build (its iCalendar code included) and the representation's declarations.
      this.documents.format,
    ]);
  }

  async single(ref: PostRef, password: string | undefined, request: FeedRequest): Promise<Response> {
    const snapshot = await this.version.current(this.siteTime.now().utc);
    const event = await this.queries.get(ref, password, request.ctx);
    const { headers, current } = this.validators(request, `${String(event.slug)}.ics`, {
      versionKey: snapshot.key,
      volatile: snapshot.volatile,
      changedUtc: [snapshot.changedUtc, String(event.modified_utc)],
      extra: null,
    });
    if (current) return new Response(null, { status: 304, headers });
    const zones =
      event.all_day === true
        ? new Map<string, ZoneSpan>()
        : zoneSpans([
            {
              timezone: String(event.timezone),
              startUtc: String(event.utc_start_date),
              endUtc: String(event.utc_end_date),
            },
          ]);
    const changed = await this.heads.changedUtcOf('event', [Number(event.id)]);
    return this.stream(headers, [
      this.body.header(zones, request.ctx),
      this.body.vevents([event], changed),
      'END:VCALENDAR\r\n',
    ]);
  }

  /**
   * The answer's headers with its validators (a weak ETag; Last-Modified when known), and whether the copy
   * the client names is current (a 304).
   */
  private validators(
    request: FeedRequest,
    filename: string,
    state: FeedState,
    fingerprint?: string,
  ): { headers: Headers; current: boolean } {
    const { ctx } = request;
    const headers = new Headers({
      'Content-Type': 'text/calendar; charset=utf-8',
      'Content-Disposition': `inline; filename="${filename.replace(/[^\w.-]/g, '_')}"`,
      // Revalidate on every poll (the validators make that a 304); shared caches only for anonymous feeds.
      'Cache-Control': `${ctx.user ? 'private' : 'public'}, no-cache`,
    });
    // While a scheduled post is due the content changes by itself: no validators to hold on to.
    if (state.volatile) return { headers, current: false };
    const caller = ctx.user ? `${ctx.user.id}:${ctx.user.role}` : '-';
    const material = JSON.stringify([
      state.versionKey,
      caller,
      ctx.language,
      ctx.namespaceUrl,
      request.url,
      state.extra,
    ]);
    headers.set('ETag', `W/"ics-${fingerprint ?? createHash('sha1').update(material).digest('base64url')}"`);
    // Last-Modified has whole seconds: a change in the current second could follow this answer unseen by a
    // client that then asks If-Modified-Since, so such an answer names none (the ETag still holds).
    const changed = latest(state.changedUtc);
    if (changed && changed < this.siteTime.now().utc) {
      headers.set('Last-Modified', DateTime.fromSQL(changed, { zone: 'utc' }).toHTTP() ?? '');
    }
    // If-Modified-Since counts only without If-None-Match (RFC 9110 §13.1.3): Last-Modified moves with any
    // write, the ETag only with the feed's own content.
    const conditional =
      request.ifNoneMatch !== undefined
        ? { 'if-none-match': request.ifNoneMatch }
        : { 'if-modified-since': request.ifModifiedSince };
    const held = { etag: headers.get('ETag') ?? undefined, 'last-modified': headers.get('Last-Modified') ?? undefined };
    return { headers, current: fresh(conditional, held) };
  }

  /**
   * A 200 whose body is written as `parts` are produced (Nest stops reading when the client goes away);
   * `done` runs when the last part is written or the stream is given up.
   */
  private stream(headers: Headers, parts: AsyncIterable<string> | Iterable<string>, done?: () => void): Response {
    const bytes = ReadableStream.from(
      (async function* () {
        try {
          for await (const part of parts) yield Buffer.from(part, 'utf8');
        } finally {
          done?.();
        }
      })(),
    );
    return new Response(bytes, { status: 200, headers });
  }
}
