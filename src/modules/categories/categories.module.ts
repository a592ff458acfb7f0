import { Module } from '@nestjs/common';
import { TermsModule } from '../../core/terms/terms.module';
import { CategoriesController } from './categories.controller';
import { CategoriesService } from './categories.service';
import { CATEGORY_TAXONOMY } from './category.taxonomy';

/** `/cal/events/v1/categories`: hierarchical event categories over the terms base. */
@Module({
  imports: [TermsModule.forTaxonomy(CATEGORY_TAXONOMY)],
  controllers: [CategoriesController],
  providers: [CategoriesService],
  exports: [CategoriesService],
})
export class CategoriesModule {}
