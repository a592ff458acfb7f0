import { Injectable } from '@nestjs/common';
import type { RequestContext } from '../../common/http/request-context';
import { systemRequestContext } from '../../common/http/system-request-context';
import { SiteIdentity } from '../../core/posts/site-identity';
import { AppConfig } from '../../config/app-config';
import { ChangeSourceRegistry } from '../../core/changes/change-source.registry';
import { typeOf } from './event-types';
import type { WebhookDeliveryEntity } from './webhook-delivery.entity';

/**
 * The JSON body of a delivery: the change, and the record as the public sees it when it is sent
 * (`deleted: true` and no object when it is gone or no longer public). Receivers are often outside the
 * site (a search index, a static build): they never get drafts, as anonymous sync clients do not.
 */
@Injectable()
export class WebhookPayloads {
  constructor(
    private readonly sources: ChangeSourceRegistry,
    private readonly config: AppConfig,
    private readonly siteIdentity: SiteIdentity,
  ) {}

  async bodyOf(delivery: WebhookDeliveryEntity): Promise<string> {
    const source = this.sources.get(delivery.resource);
    const object =
      delivery.action === 'deleted' || !source
        ? undefined
        : (await source.visibleObjects([delivery.resourceId], this.publicContext(delivery.id))).get(
            delivery.resourceId,
          );
    return JSON.stringify({
      id: delivery.id,
      type: typeOf(delivery.resource, delivery.action),
      created_utc: delivery.createdUtc,
      data: {
        resource: delivery.resource,
        id: delivery.resourceId,
        action: delivery.action,
        changed_utc: delivery.changedUtc,
        deleted: object === undefined,
        ...(object === undefined ? {} : { object }),
      },
    });
  }

  /** An anonymous caller on the public URL. */
  private publicContext(requestId: string): RequestContext {
    return systemRequestContext(this.config, {
      user: null,
      requestId,
      clientAddress: 'webhook',
      siteHost: this.siteIdentity.host,
    });
  }
}
