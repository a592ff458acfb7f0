import { Controller, Get, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { DomainError } from '../common/errors/domain-error';
import { docText } from '../common/i18n/doc-text';
import { NAMESPACE, TEC_NAMESPACE } from '../common/http/namespace';
import { Ctx, type RequestContext } from '../common/http/request-context';
import { NamespaceIndexQueryDto } from './namespace-index-query.dto';
import { OpenApiDocumentService } from './openapi-document.service';
import { AppConfig } from '../config/app-config';

/** The namespace as this request named it: ours, or the reference's through the TEC alias. */
const wireNamespace = (ctx: RequestContext): string => (ctx.dialect === 'tec' ? TEC_NAMESPACE : NAMESPACE);

@ApiTags('discovery')
@Controller(NAMESPACE)
export class DiscoveryController {
  constructor(
    private readonly documents: OpenApiDocumentService,
    private readonly config: AppConfig,
  ) {}

  @Get()
  @ApiOperation({
    summary: docText({ en: 'List the routes of the namespace.', de: 'Listet die Routen des Namensraums.' }),
  })
  index(@Query() query: NamespaceIndexQueryDto, @Ctx() ctx: RequestContext): Record<string, unknown> {
    const namespace = wireNamespace(ctx);
    if (query.namespace !== undefined && query.namespace.replace(/^\/+|\/+$/g, '') !== namespace) {
      throw new DomainError('invalid_namespace');
    }
    return {
      namespace,
      routes: this.documents.routesAs(namespace, ctx.language),
      // Up: the first-run page at the API's root (`/wp-json/` through the TEC alias), not below a language.
      _links: {
        up: [{ href: ctx.dialect === 'tec' ? `${ctx.restBase}/` : `${ctx.siteUrl}${this.config.apiPrefix}/` }],
        self: [{ href: ctx.namespaceUrl }],
      },
    };
  }

  @Get('doc')
  @ApiOperation({
    summary: docText({
      en: 'The OpenAPI 3 document of the whole API.',
      de: 'Das OpenAPI-3-Dokument der gesamten Schnittstelle.',
    }),
  })
  doc(@Ctx() ctx: RequestContext): Record<string, unknown> {
    return { ...this.documents.document(ctx.language, ctx.restBase) };
  }
}
