import { DynamicModule, Global, Module, type Provider } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ChangeSourceRegistry } from '../changes/change-source.registry';
import { TaxonomyRegistry, type TaxonomyDefinition } from './taxonomy.registry';
import { TermCountsService } from './term-counts.service';
import { TermRelationshipEntity } from './term-relationship.entity';
import { TermRelationshipsService } from './term-relationships.service';
import { TaxonomyTermsService } from './taxonomy-terms.service';
import { TermReferencesService } from './term-references.service';
import { TermSlugsService } from './term-slugs.service';
import { TermsRepository } from './terms.repository';
import { TermEntity } from './term.entity';

const TERMS_PROVIDERS = [
  TaxonomyRegistry,
  TermCountsService,
  TermRelationshipsService,
  TermSlugsService,
  TermsRepository,
  TaxonomyTermsService,
  TermReferencesService,
];

/**
 * The terms base: one `terms` table for every taxonomy, the post↔term links and exact counts.
 * Import `TermsModule.forTaxonomy({...})` from a taxonomy module to register it. Global: the one taxonomy
 * registry and the term services that every post type with terms uses.
 */
@Global()
@Module({
  imports: [TypeOrmModule.forFeature([TermEntity, TermRelationshipEntity])],
  providers: TERMS_PROVIDERS,
  exports: TERMS_PROVIDERS,
})
export class TermsModule {
  /** Registers a taxonomy with the base when the application starts. */
  static forTaxonomy(definition: TaxonomyDefinition): DynamicModule {
    const registration: Provider = {
      provide: `taxonomy:${definition.taxonomy}`,
      useFactory: (registry: TaxonomyRegistry, changes: ChangeSourceRegistry, terms: TaxonomyTermsService) => {
        registry.register(definition);
        changes.add({
          resource: definition.noun,
          visibleObjects: (ids, ctx) => terms.objectsByIds(definition, ids, ctx),
        });
        return definition;
      },
      inject: [TaxonomyRegistry, ChangeSourceRegistry, TaxonomyTermsService],
    };
    return { module: TaxonomyRegistrationModule, providers: [registration], exports: [registration] };
  }
}

@Module({})
class TaxonomyRegistrationModule {}
