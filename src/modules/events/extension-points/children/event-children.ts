import { Injectable } from '@nestjs/common';
import { In } from 'typeorm';
import type { RequestContext } from '../../../../common/http/request-context';
import { reason, defineReason } from '../../../../common/validation/validation-messages';
import { DatabaseContext } from '../../../../database/database-context';
import { PostRecordsService } from '../../../../core/posts/post-records.service';
import { PostEntity } from '../../../../core/posts/post.entity';
import { EventDetailsEntity } from '../../model/event-details.entity';
import { EVENT_POST_TYPE } from '../../model/event.post-type';
import { EventsQueryService } from '../../rest/events-query.service';
import type { EventChildParent } from './event-child-resource';

const LEAVES_CHILDREN_OUTSIDE = defineReason('event_leaves_children_outside', {
  en: 'would leave {arg} outside the event',
  de: 'würde {arg} außerhalb der Veranstaltung lassen',
});

const parentOf = (event: Pick<PostEntity, 'id' | 'status'>, details: EventDetailsEntity): EventChildParent => ({
  id: event.id,
  status: event.status,
  startUtc: details.startUtc,
  endUtc: details.endUtc,
  timezone: details.timezone,
  allDay: details.allDay,
});

/**
 * What a module's routes under `/events/{id}/…` (an event's tickets, its sessions) need of the event: that
 * the caller may read it, or edit it, answered exactly as the event's own routes answer (404 for an event
 * they may not see, 401/403 for one they may not change, 403 for a protected event without its password),
 * the event's times, and a way to say the event changed through a child, so that its `modified`, `ETag`,
 * stored document, the response cache, the change feed and webhooks follow.
 */
@Injectable()
export class EventChildren {
  constructor(
    private readonly reads: EventsQueryService,
    private readonly records: PostRecordsService,
    private readonly db: DatabaseContext,
  ) {}

  /** For reads: the event, if the caller may read it as `GET /events/{id}?password=` would let them. */
  readable(eventId: number, ctx: RequestContext, password?: string): Promise<PostEntity> {
    return this.reads.readablePost(eventId, password, ctx);
  }

  /**
   * For writes, inside the write's transaction: the event, locked, if the caller may edit it
   * (`PUT /events/{id}`'s 404, 401 and 403). Call {@link changed} once the write is done.
   */
  editable(eventId: number, ctx: RequestContext): Promise<PostEntity> {
    return this.records.findWritable(EVENT_POST_TYPE, { id: eventId }, ctx.user, 'edit');
  }

  /** The event's status and times, as a child definition's rules see them. */
  async parentOf(event: PostEntity): Promise<EventChildParent> {
    return parentOf(event, await this.db.manager.findOneByOrFail(EventDetailsEntity, { postId: event.id }));
  }

  /** {@link parentOf} for many events at once, by id (those that still exist). */
  async parentsOf(ids: readonly number[]): Promise<Map<number, EventChildParent>> {
    const posts = await this.db.manager.find(PostEntity, {
      select: { id: true, status: true },
      where: { id: In([...ids]) },
    });
    const details = await this.db.manager.findBy(EventDetailsEntity, { postId: In([...ids]) });
    const byId = new Map(details.map((d) => [d.postId, d]));
    const parents = new Map<number, EventChildParent>();
    for (const post of posts) {
      const found = byId.get(post.id);
      if (found) parents.set(post.id, parentOf(post, found));
    }
    return parents;
  }

  /** The 400's parameters when an edit of events would leave child records (`path`, ids) outside them. */
  leftOutside(path: string, ids: readonly number[]): Record<string, string> {
    const why = reason(LEAVES_CHILDREN_OUTSIDE, `${path} ${ids.join(', ')}`);
    return { start_date: why, end_date: why };
  }

  /** The event (as `editable` gave it) changed through a child: inside the write's transaction. */
  changed(event: PostEntity): Promise<void> {
    return this.records.touch(EVENT_POST_TYPE, event);
  }

  /** The event as the caller's plain `GET /events/{id}` answers it: what `If-Match` on a child create names. */
  representation(eventId: number, ctx: RequestContext): Promise<object> {
    return this.reads.answer({ id: eventId }, undefined, ctx);
  }
}
