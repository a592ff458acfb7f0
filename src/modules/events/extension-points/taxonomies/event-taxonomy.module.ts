import { Module, type DynamicModule } from '@nestjs/common';
import { responseSchemaRegistry } from '../../../../common/http/response-schema-registry';
import { IdOrSlugListField, TermReferencesField } from '../../../../common/validation/fields';
import { PostTypeRegistry } from '../../../../core/posts/post-type.registry';
import { createTaxonomyController } from '../../../../core/terms/taxonomy.controller';
import { TermsModule } from '../../../../core/terms/terms.module';
import { EVENT_POST_TYPE } from '../../model/event.post-type';
import { declareEventField, declareEventListParam, noteWriteFieldSharing } from '../../fields/event-field-declarations';
import { EventTaxonomyRegistry, type EventTaxonomyDefinition } from './event-taxonomy';

const TERMS = { type: 'array', items: { $ref: '#/components/schemas/Term' } };

/**
 * A module's taxonomy on events, from its declaration:
 * `@Module({ imports: [EventTaxonomyModule.forDefinition(AUDIENCES)] })`. Its routes (`/{restBase}`), counts
 * and change feed come from the terms base; events carry its terms, show them as `field`, take them by id or
 * name on writes and filter by them (served by the exact query: the day counts know only categories and tags).
 */
@Module({})
export class EventTaxonomyModule {
  static forDefinition(definition: EventTaxonomyDefinition): DynamicModule {
    const { taxonomy, field, routes } = definition;
    declareEventField({
      name: field,
      schema: TERMS,
      writeRule: TermReferencesField({ description: definition.writeDescription }),
    });
    noteWriteFieldSharing(field, 'terms');
    declareEventListParam(
      field,
      IdOrSlugListField({ description: definition.filterDescription, nonEmpty: true, samplesOf: taxonomy.restBase }),
    );
    responseSchemaRegistry.addResource({
      path: taxonomy.restBase,
      item: 'Term',
      list: `${taxonomy.restBase.charAt(0).toUpperCase()}${taxonomy.restBase.slice(1)}List`,
      listKey: taxonomy.restBase,
      schemas: {},
      examples: { create: { name: 'Example' }, update: { description: 'Changed' } },
    });
    return {
      module: EventTaxonomyModule,
      imports: [TermsModule.forTaxonomy(taxonomy)],
      controllers: [createTaxonomyController(taxonomy, routes)],
      providers: [
        {
          provide: `event-taxonomy:${taxonomy.taxonomy}`,
          inject: [EventTaxonomyRegistry, PostTypeRegistry],
          useFactory: (registry: EventTaxonomyRegistry, postTypes: PostTypeRegistry) => {
            registry.register(definition);
            postTypes.carry(EVENT_POST_TYPE.type, taxonomy.taxonomy);
            return definition;
          },
        },
      ],
    };
  }
}
