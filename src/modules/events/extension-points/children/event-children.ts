import { Injectable } from '@nestjs/common';
import type { RequestContext } from '../../../../common/http/request-context';
import { PostRecordsService } from '../../../../core/posts/post-records.service';
import type { PostEntity } from '../../../../core/posts/post.entity';
import { EVENT_POST_TYPE } from '../../model/event.post-type';
import { EventsQueryService } from '../../rest/events-query.service';

/**
 * What a module's routes under `/events/{id}/…` (an event's tickets, its sessions) need of the event: that
 * the caller may read it, or edit it, answered exactly as the event's own routes answer (404 for an event
 * they may not see, 401/403 for one they may not change, the password rule of a protected event), and a way
 * to say the event's representation changed through a child, so that its stored document, the response
 * cache, the change feed and webhooks follow.
 */
@Injectable()
export class EventChildren {
  constructor(
    private readonly reads: EventsQueryService,
    private readonly records: PostRecordsService,
  ) {}

  /** For reads: the event, if the caller may read it as `GET /events/{id}?password=` would let them. */
  readable(eventId: number, ctx: RequestContext, password?: string): Promise<PostEntity> {
    return this.reads.readablePost(eventId, password, ctx);
  }

  /**
   * For writes, inside the write's transaction: the event, locked, if the caller may edit it
   * (`PUT /events/{id}`'s 404, 401 and 403). Its representation is marked changed by the same call.
   */
  async editable(eventId: number, ctx: RequestContext): Promise<PostEntity> {
    const event = await this.records.findWritable(EVENT_POST_TYPE, { id: eventId }, ctx.user, 'edit');
    this.changed(event);
    return event;
  }

  /** Marks the event changed through a child (no write of its own row): inside the write's transaction. */
  changed(event: PostEntity): void {
    this.records.recordEmbeddingChanged([event]);
  }
}
