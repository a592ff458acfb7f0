import type { WebhookDeliveryEntity } from './webhook-delivery.entity';
import type { WebhookEndpointEntity } from './webhook-endpoint.entity';
import { typeOf } from './event-types';

/** An endpoint as the API shows it; the secret only in the answer of the request that set it. */
export function toWebhookObject(endpoint: WebhookEndpointEntity, namespaceUrl: string, withSecret = false) {
  return {
    id: endpoint.id,
    url: endpoint.url,
    events: JSON.parse(endpoint.eventTypes) as string[],
    description: endpoint.description,
    status: endpoint.status,
    disabled_reason: endpoint.disabledReason,
    created_utc: endpoint.createdUtc,
    modified_utc: endpoint.modifiedUtc,
    ...(withSecret ? { secret: endpoint.secret } : {}),
    urls: {
      self: `${namespaceUrl}/webhooks/${endpoint.id}`,
      deliveries: `${namespaceUrl}/webhooks/${endpoint.id}/deliveries`,
    },
  };
}

export type WebhookObject = ReturnType<typeof toWebhookObject>;

export function toDeliveryObject(delivery: WebhookDeliveryEntity) {
  return {
    id: delivery.id,
    webhook: delivery.endpointId,
    type: typeOf(delivery.resource, delivery.action),
    resource: delivery.resource,
    resource_id: delivery.resourceId,
    status: delivery.status,
    attempts: delivery.attempts,
    next_attempt_utc: delivery.status === 'pending' ? delivery.nextAttemptUtc : null,
    last_status: delivery.lastStatus,
    last_error: delivery.lastError,
    changed_utc: delivery.changedUtc,
    created_utc: delivery.createdUtc,
    delivered_utc: delivery.deliveredUtc,
  };
}

export type DeliveryObject = ReturnType<typeof toDeliveryObject>;
