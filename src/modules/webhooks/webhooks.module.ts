import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { WebhookDeliverer } from './webhook-deliverer';
import { WebhookDeliveryEntity } from './webhook-delivery.entity';
import { WebhookDispatcher } from './webhook-dispatcher';
import { WebhookEndpointEntity } from './webhook-endpoint.entity';
import { WebhookPayloads } from './webhook-payloads';
import { WebhookSender } from './webhook-sender';
import { WebhookQueue } from './webhook-queue';
import { WebhookDeliveryJanitor } from './webhook-delivery.janitor';
import { WebhookWorker } from './webhook-worker';
import { WebhooksController } from './webhooks.controller';
import { WebhooksService } from './webhooks.service';

/**
 * `/cal/events/v1/webhooks`: endpoints administrators register, and the worker that delivers the change
 * log to them (docs/sync-and-webhooks.md).
 */
@Module({
  imports: [TypeOrmModule.forFeature([WebhookEndpointEntity, WebhookDeliveryEntity])],
  controllers: [WebhooksController],
  providers: [
    WebhooksService,
    WebhookDispatcher,
    WebhookDeliverer,
    WebhookPayloads,
    WebhookSender,
    WebhookWorker,
    WebhookQueue,
    WebhookDeliveryJanitor,
  ],
  exports: [WebhooksService, WebhookWorker, WebhookDispatcher, WebhookDeliverer],
})
export class WebhooksModule {}
