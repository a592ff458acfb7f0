import { Module } from '@nestjs/common';
import { DiscoveryController } from './discovery.controller';
import { FirstRunController } from './first-run.controller';
import { OpenApiDocumentService } from './openapi-document.service';
import { WpJsonRootController } from './wp-json-root.controller';

/** The namespace index and the OpenAPI document, both generated from the registered routes; the first-run page. */
@Module({
  controllers: [DiscoveryController, WpJsonRootController, FirstRunController],
  providers: [OpenApiDocumentService],
  exports: [OpenApiDocumentService],
})
export class DiscoveryModule {}
