import { Body, Delete, Get, Param, Post, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { RequiresCapability } from '../../auth/requires-capability.decorator';
import { docText } from '../../common/i18n/doc-text';
import { NAMESPACE } from '../../common/http/namespace';
import { Ctx, type RequestContext } from '../../common/http/request-context';
import { PathId, RestController, UpdateRoute } from '../../common/http/rest-routes';
import { PaginationQueryDto } from '../../common/pagination/pagination-query.dto';
import type { ListResponse } from '../../common/pagination/pagination';
import { CreateWebhookDto } from './dto/create-webhook.dto';
import { ListDeliveriesQueryDto } from './dto/list-deliveries-query.dto';
import { UpdateWebhookDto } from './dto/update-webhook.dto';
import type { DeliveryObject, WebhookObject } from './webhook.mapper';
import { WebhooksService } from './webhooks.service';

const WEBHOOK_ID = { en: 'Unique identifier of the webhook.', de: 'Eindeutige ID des Webhooks.' };

@ApiTags('webhooks')
@RestController(`${NAMESPACE}/webhooks`)
export class WebhooksController {
  constructor(private readonly webhooks: WebhooksService) {}

  @Get()
  @RequiresCapability('manage_options', 'webhook')
  @ApiOperation({ summary: docText({ en: 'List webhooks.', de: 'Webhooks auflisten.' }) })
  list(@Query() query: PaginationQueryDto, @Ctx() ctx: RequestContext): Promise<ListResponse> {
    return this.webhooks.list(query.page, query.per_page, ctx);
  }

  @Post()
  @RequiresCapability('manage_options', 'webhook')
  @ApiOperation({ summary: docText({ en: 'Register a webhook.', de: 'Einen Webhook anlegen.' }) })
  create(@Body() dto: CreateWebhookDto, @Ctx() ctx: RequestContext): Promise<WebhookObject> {
    return this.webhooks.create(dto, ctx);
  }

  @Get(':id')
  @RequiresCapability('manage_options', 'webhook')
  @ApiOperation({ summary: docText({ en: 'Read a webhook.', de: 'Einen Webhook lesen.' }) })
  get(@PathId(WEBHOOK_ID) id: number, @Ctx() ctx: RequestContext): Promise<WebhookObject> {
    return this.webhooks.get(id, ctx);
  }

  @UpdateRoute(':id')
  @RequiresCapability('manage_options', 'webhook')
  @ApiOperation({ summary: docText({ en: 'Change a webhook.', de: 'Einen Webhook ändern.' }) })
  update(
    @PathId(WEBHOOK_ID) id: number,
    @Body() dto: UpdateWebhookDto,
    @Ctx() ctx: RequestContext,
  ): Promise<WebhookObject> {
    return this.webhooks.update(id, dto, ctx);
  }

  @Delete(':id')
  @RequiresCapability('manage_options', 'webhook')
  @ApiOperation({ summary: docText({ en: 'Delete a webhook.', de: 'Einen Webhook löschen.' }) })
  delete(@PathId(WEBHOOK_ID) id: number, @Ctx() ctx: RequestContext): Promise<WebhookObject> {
    return this.webhooks.delete(id, ctx);
  }

  @Get(':id/deliveries')
  @RequiresCapability('manage_options', 'webhook')
  @ApiOperation({
    summary: docText({ en: 'List a webhook’s deliveries.', de: 'Zustellungen eines Webhooks auflisten.' }),
  })
  deliveries(
    @PathId(WEBHOOK_ID) id: number,
    @Query() query: ListDeliveriesQueryDto,
    @Ctx() ctx: RequestContext,
  ): Promise<ListResponse> {
    return this.webhooks.deliveries(id, query, ctx);
  }

  @Post(':id/deliveries/:delivery/redeliver')
  @RequiresCapability('manage_options', 'webhook')
  @ApiOperation({
    summary: docText({ en: 'Send a delivery again (same id).', de: 'Eine Zustellung erneut senden (gleiche ID).' }),
  })
  redeliver(
    @PathId(WEBHOOK_ID) id: number,
    @Param('delivery') delivery: string,
    @Ctx() ctx: RequestContext,
  ): Promise<DeliveryObject> {
    void ctx;
    return this.webhooks.redeliver(id, delivery);
  }
}
