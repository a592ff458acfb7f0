import { Module } from '@nestjs/common';
import { TermsModule } from '../../core/terms/terms.module';
import { TAG_TAXONOMY } from './tag.taxonomy';
import { TagsController } from './tags.controller';
import { TagsService } from './tags.service';

/** `/cal/events/v1/tags`: flat event tags over the terms base. */
@Module({
  imports: [TermsModule.forTaxonomy(TAG_TAXONOMY)],
  controllers: [TagsController],
  providers: [TagsService],
  exports: [TagsService],
})
export class TagsModule {}
