import { Injectable, type OnModuleInit } from '@nestjs/common';
import { SiteTime } from '../../../common/dates/site-time';
import type { RequestContext } from '../../../common/http/request-context';
import { ChangeSourceRegistry } from '../../../core/changes/change-source.registry';
import { isInScope, listScopeFor } from '../../../core/posts/post-query';
import { EventObjectsService } from './event-objects.service';
import { EVENT_POST_TYPE } from './event.post-type';
import { EventsRepository } from '../archive/events.repository';

/**
 * Events in the change feed: as the list shows them to the caller (any date, hidden from listings or
 * not; protected ones blanked; drafts only to those who may read them; trash to nobody).
 */
@Injectable()
export class EventChangeSource implements OnModuleInit {
  constructor(
    private readonly registry: ChangeSourceRegistry,
    private readonly events: EventsRepository,
    private readonly objects: EventObjectsService,
    private readonly siteTime: SiteTime,
  ) {}

  onModuleInit(): void {
    this.registry.add({ resource: EVENT_POST_TYPE.noun, visibleObjects: (ids, ctx) => this.visibleObjects(ids, ctx) });
  }

  private async visibleObjects(ids: number[], ctx: RequestContext): Promise<Map<number, object>> {
    const scope = listScopeFor(ctx.user, undefined);
    const nowUtc = this.siteTime.now().utc;
    const records = (await this.events.recordsInOrder(ids)).filter(
      (r) => r.post.type === EVENT_POST_TYPE.type && isInScope(scope, r.post, nowUtc),
    );
    const objects = await this.objects.fromRecords(records, ctx, () => false);
    return new Map(objects.map(({ object }) => [object.id, object]));
  }
}
