import { Module } from '@nestjs/common';
import { createTaxonomyController } from '../../core/terms/taxonomy.controller';
import { TermsModule } from '../../core/terms/terms.module';
import { CATEGORY_TAXONOMY } from './category.taxonomy';

/** `/cal/events/v1/categories`: hierarchical event categories over the terms base. */
@Module({
  imports: [TermsModule.forTaxonomy(CATEGORY_TAXONOMY)],
  controllers: [
    createTaxonomyController(CATEGORY_TAXONOMY, {
      texts: {
        en: { a: 'an event category', the: 'category', many: 'event categories' },
        de: { a: 'eine Veranstaltungskategorie', of: 'der Kategorie', many: 'Veranstaltungskategorien' },
      },
    }),
  ],
})
export class CategoriesModule {}
