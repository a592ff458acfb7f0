import { Module } from '@nestjs/common';
import { DiscoveryController } from './discovery.controller';
import { OpenApiDocumentService } from './openapi-document.service';

/** The namespace index and the OpenAPI document, both generated from the registered routes. */
@Module({
  controllers: [DiscoveryController],
  providers: [OpenApiDocumentService],
  exports: [OpenApiDocumentService],
})
export class DiscoveryModule {}
