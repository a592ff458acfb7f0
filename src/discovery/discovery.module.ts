import { Module } from '@nestjs/common';
import { DiscoveryController } from './discovery.controller';
import { OpenApiDocumentService } from './openapi-document.service';
import { WpJsonRootController } from './wp-json-root.controller';

/** The namespace index and the OpenAPI document, both generated from the registered routes. */
@Module({
  controllers: [DiscoveryController, WpJsonRootController],
  providers: [OpenApiDocumentService],
  exports: [OpenApiDocumentService],
})
export class DiscoveryModule {}
