import { Module } from '@nestjs/common';
import { createTaxonomyController } from '../../core/terms/taxonomy.controller';
import { TermsModule } from '../../core/terms/terms.module';
import { TAG_TAXONOMY } from './tag.taxonomy';

/** `/cal/events/v1/tags`: flat event tags over the terms base. */
@Module({
  imports: [TermsModule.forTaxonomy(TAG_TAXONOMY)],
  controllers: [
    createTaxonomyController(TAG_TAXONOMY, {
      texts: {
        en: { a: 'an event tag', the: 'tag', many: 'event tags' },
        de: { a: 'ein Schlagwort', of: 'des Schlagworts', many: 'Schlagwörter' },
      },
    }),
  ],
})
export class TagsModule {}
