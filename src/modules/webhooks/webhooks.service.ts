import { Injectable } from '@nestjs/common';
import { Clock } from '../../common/dates/clock';
import { DomainError } from '../../common/errors/domain-error';
import type { RequestContext } from '../../common/http/request-context';
import { entityListResponse } from '../../common/pagination/entity-list';
import { resolvePageRequest, type ListResponse } from '../../common/pagination/pagination';
import { RequestValidationError } from '../../common/validation/request-validation.error';
import { reason } from '../../common/validation/validation-messages';
import { AppConfig } from '../../config/app-config';
import { committedSequence } from '../../database/changes/committed-sequence';
import { DatabaseContext } from '../../database/database-context';
import { WriteTransactions } from '../../database/write-transactions';
import type { CreateWebhookDto } from './dto/create-webhook.dto';
import type { ListDeliveriesQueryDto } from './dto/list-deliveries-query.dto';
import type { UpdateWebhookDto } from './dto/update-webhook.dto';
import { WebhookDeliveryEntity } from './webhook-delivery.entity';
import { WebhookEndpointEntity } from './webhook-endpoint.entity';
import { toDeliveryObject, toWebhookObject, type DeliveryObject, type WebhookObject } from './webhook.mapper';
import { newWebhookSecret } from './webhook-signature';
import { refuseOutboundUrl } from '../../common/net/outbound-url-guard';

export interface QueueState {
  /** Committed writes the dispatcher has not turned into deliveries yet. */
  writes_not_dispatched: number;
  endpoints: {
    id: number;
    url: string;
    status: string;
    disabled_reason: string | null;
    events: string[];
    pending: number;
    delivered: number;
    failed: number;
    next_attempt_utc: string | null;
  }[];
}

/** Webhook endpoints and their deliveries, for administrators (`manage_options`). */
@Injectable()
export class WebhooksService {
  constructor(
    private readonly db: DatabaseContext,
    private readonly transactions: WriteTransactions,
    private readonly clock: Clock,
    private readonly config: AppConfig,
  ) {}

  async list(page: number | undefined, perPage: number | undefined, ctx: RequestContext): Promise<ListResponse> {
    return entityListResponse(this.db.manager, WebhookEndpointEntity, {
      key: 'webhooks',
      order: { id: 'ASC' },
      page: resolvePageRequest(page, perPage, this.config.maxPerPage),
      collectionUrl: `${ctx.namespaceUrl}/webhooks`,
      toItems: (endpoints) => endpoints.map((e) => toWebhookObject(e, ctx.namespaceUrl)),
    });
  }

  async get(id: number, ctx: RequestContext): Promise<WebhookObject> {
    return toWebhookObject(await this.require(id), ctx.namespaceUrl);
  }

  async create(dto: CreateWebhookDto, ctx: RequestContext): Promise<WebhookObject> {
    await this.assertUrl(dto.url);
    const endpoint = await this.transactions.run(
      async () => {
        const now = this.clock.nowSqlUtc();
        // Changes committed before the endpoint existed are not its to receive.
        const head = await committedSequence(this.db.manager);
        const id = await this.db.insertReturningId(WebhookEndpointEntity, {
          url: dto.url,
          description: dto.description ?? '',
          eventTypes: JSON.stringify(dto.events ?? ['*']),
          secret: dto.secret || newWebhookSecret(),
          status: 'active',
          disabledReason: null,
          sinceSeq: head.value,
          createdUtc: now,
          modifiedUtc: now,
        });
        return this.require(id);
      },
      { content: false },
    );
    return toWebhookObject(endpoint, ctx.namespaceUrl, true);
  }

  async update(id: number, dto: UpdateWebhookDto, ctx: RequestContext): Promise<WebhookObject> {
    if (dto.url !== undefined) await this.assertUrl(dto.url);
    const endpoint = await this.transactions.run(
      async () => {
        const current = await this.require(id);
        if (dto.url !== undefined) current.url = dto.url;
        if (dto.description !== undefined) current.description = dto.description;
        if (dto.events !== undefined) current.eventTypes = JSON.stringify(dto.events);
        if (dto.secret) current.secret = dto.secret;
        if (dto.status !== undefined && dto.status !== current.status) {
          current.status = dto.status;
          current.disabledReason = dto.status === 'disabled' ? 'Disabled by an administrator.' : null;
        }
        current.modifiedUtc = this.clock.nowSqlUtc();
        return this.db.manager.save(current);
      },
      { content: false },
    );
    return toWebhookObject(endpoint, ctx.namespaceUrl, Boolean(dto.secret));
  }

  /** Deletes the endpoint and its deliveries. */
  async delete(id: number, ctx: RequestContext): Promise<WebhookObject> {
    const endpoint = await this.transactions.run(
      async () => {
        const current = await this.require(id);
        await this.db.manager.delete(WebhookEndpointEntity, { id });
        return current;
      },
      { content: false },
    );
    return toWebhookObject(endpoint, ctx.namespaceUrl);
  }

  async deliveries(id: number, query: ListDeliveriesQueryDto, ctx: RequestContext): Promise<ListResponse> {
    await this.require(id);
    return entityListResponse(this.db.manager, WebhookDeliveryEntity, {
      key: 'deliveries',
      where: { endpointId: id, ...(query.status ? { status: query.status } : {}) },
      order: { seq: 'DESC', position: 'DESC' },
      page: resolvePageRequest(query.page, query.per_page, this.config.maxPerPage),
      collectionUrl: `${ctx.namespaceUrl}/webhooks/${id}/deliveries`,
      query: { status: query.status },
      toItems: (deliveries) => deliveries.map(toDeliveryObject),
    });
  }

  /**
   * Sends a delivery again, with the same id (a receiver that did process it recognises it): back to
   * pending, due now, with a fresh retry window.
   */
  async redeliver(id: number, deliveryId: string): Promise<DeliveryObject> {
    const delivery = await this.transactions.run(
      async () => {
        const found = await this.db.manager.findOneBy(WebhookDeliveryEntity, { id: deliveryId, endpointId: id });
        if (!found) throw new DomainError('delivery_not_found');
        const now = this.clock.nowSqlUtc();
        Object.assign(found, { status: 'pending', nextAttemptUtc: now, leaseUntilUtc: null, createdUtc: now });
        return this.db.manager.save(found);
      },
      { content: false },
    );
    return toDeliveryObject(delivery);
  }

  /** Every endpoint with its deliveries counted by state, and how far the dispatcher is behind: the CLI. */
  async queue(): Promise<QueueState> {
    const endpoints = await this.db.manager.find(WebhookEndpointEntity, { order: { id: 'ASC' } });
    const counts = await this.db.manager
      .createQueryBuilder(WebhookDeliveryEntity, 'd')
      .select(['d.endpointId AS endpoint', 'd.status AS status', 'COUNT(*) AS n', 'MIN(d.nextAttemptUtc) AS next'])
      .groupBy('d.endpointId')
      .addGroupBy('d.status')
      .getRawMany<{ endpoint: number; status: string; n: number | string; next: string | null }>();
    const positions = await this.db.manager
      .createQueryBuilder()
      .select(['w.value AS head', 'd.seq AS dispatched'])
      .from('write_sequence', 'w')
      .innerJoin('webhook_dispatch', 'd', 'd.id = 1')
      .where('w.id = 1')
      .getRawOne<{ head: number | string; dispatched: number | string }>();
    return {
      writes_not_dispatched: Math.max(0, Number(positions?.head ?? 0) - Number(positions?.dispatched ?? 0)),
      endpoints: endpoints.map((e) => {
        const mine = counts.filter((c) => Number(c.endpoint) === e.id);
        const count = (status: string) => Number(mine.find((c) => c.status === status)?.n ?? 0);
        return {
          id: e.id,
          url: e.url,
          status: e.status,
          disabled_reason: e.disabledReason,
          events: JSON.parse(e.eventTypes) as string[],
          pending: count('pending'),
          delivered: count('delivered'),
          failed: count('failed'),
          next_attempt_utc: mine.find((c) => c.status === 'pending')?.next ?? null,
        };
      }),
    };
  }

  /** {@link redeliver} by the delivery id alone (the CLI). */
  async redeliverById(deliveryId: string): Promise<DeliveryObject> {
    const found = await this.db.manager.findOneBy(WebhookDeliveryEntity, { id: deliveryId });
    if (!found) throw new DomainError('delivery_not_found');
    return this.redeliver(found.endpointId, deliveryId);
  }

  private async require(id: number): Promise<WebhookEndpointEntity> {
    const endpoint = await this.db.manager.findOneBy(WebhookEndpointEntity, { id });
    if (!endpoint) throw new DomainError('webhook_not_found');
    return endpoint;
  }

  private async assertUrl(url: string): Promise<void> {
    const refused = await refuseOutboundUrl(url, this.config.webhooks.allowPrivate);
    if (refused) throw RequestValidationError.of({ url: reason('refused_url', refused) });
  }
}
