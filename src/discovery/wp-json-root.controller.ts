import { Controller, Get } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { SiteTime } from '../common/dates/site-time';
import { DomainError } from '../common/errors/domain-error';
import { TEC_NAMESPACE, TEC_REST_ROOT } from '../common/http/namespace';
import { Ctx, type RequestContext } from '../common/http/request-context';
import { AppConfig } from '../config/app-config';
import { OpenApiDocumentService } from './openapi-document.service';

/**
 * `GET /wp-json/`: WordPress's REST discovery root, as TEC clients read it to find the events namespace.
 * Lists only `tribe/events/v1` (this is not WordPress) and its routes. Off with `TEC_COMPAT=false`.
 */
@ApiExcludeController()
@Controller(TEC_REST_ROOT)
export class WpJsonRootController {
  constructor(
    private readonly documents: OpenApiDocumentService,
    private readonly config: AppConfig,
    private readonly siteTime: SiteTime,
  ) {}

  @Get()
  index(@Ctx() ctx: RequestContext): Record<string, unknown> {
    if (!this.config.tecCompat) throw new DomainError('no_route');
    const root = `${ctx.restBase}/${TEC_REST_ROOT}`;
    return {
      name: new URL(ctx.siteUrl).host,
      description: 'Events calendar REST service (The Events Calendar compatible)',
      url: ctx.siteUrl,
      home: ctx.siteUrl,
      timezone_string: this.siteTime.zone,
      namespaces: [TEC_NAMESPACE],
      authentication: {},
      routes: {
        [`/${TEC_NAMESPACE}`]: {
          namespace: TEC_NAMESPACE,
          methods: ['GET'],
          endpoints: [{ methods: ['GET'], args: {} }],
          _links: { self: [{ href: `${root}/${TEC_NAMESPACE}` }] },
        },
        ...this.documents.routesAs(TEC_NAMESPACE, ctx.language),
      },
      _links: { help: [{ href: `${ctx.siteUrl}/` }], self: [{ href: `${root}/` }] },
    };
  }
}
