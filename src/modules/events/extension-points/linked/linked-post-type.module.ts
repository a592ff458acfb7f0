import { responseSchemaRegistry } from '../../../../common/http/response-schema-registry';
import { Module, type DynamicModule } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { type ObjectLiteral } from 'typeorm';
import { SiteTime } from '../../../../common/dates/site-time';
import { AppConfig } from '../../../../config/app-config';
import { AttachmentsService } from '../../../../core/posts/attachments/attachments.service';
import { PostRecordsService } from '../../../../core/posts/post-records.service';
import { PostsModule } from '../../../../core/posts/posts.module';
import { ShapedQueries } from '../../../../database/shaped-queries';
import { DatabaseContext } from '../../../../database/database-context';
import { WriteTransactions } from '../../../../database/write-transactions';
import { CALENDAR_POST_TYPES } from '../../../calendar-post-types';
import { ChangeSourceRegistry } from '../../../../core/changes/change-source.registry';
import { ConditionalWrites } from '../../../../core/changes/conditional-writes';
import { EventLinksModule } from '../links/event-links.module';
import { createLinkedPostTypeController } from './linked-post-type.controller';
import { linkedServiceToken, type LinkedPostTypeDefinition } from './linked-post-type.definition';
import { LinkedPostTypeService } from './linked-post-type.service';
import { LinkedPostExtensionRegistry } from './linked-post-extension';
import { LinkedPostsRepository } from './linked-posts.repository';
import { eventLinkEntity } from './linked-post-tables';

/**
 * Builds a post type that events link to from its definition: registers the post type, its entities, the
 * routes, the service (exported under `linkedServiceToken(type)`) and the event link. A module for it is
 * `@Module({ imports: [LinkedPostTypeModule.forDefinition(SPEAKER_DEFINITION)] })`.
 */
/** The type's objects and its list envelope, in the OpenAPI document (the event's member is the link's). */
function describeResponses(
  definition: LinkedPostTypeDefinition<{ postId: number }, ObjectLiteral, { id: number }, object>,
) {
  const { schema, examples } = definition.openApi!;
  const item = definition.def.noun.charAt(0).toUpperCase() + definition.def.noun.slice(1);
  responseSchemaRegistry.addResource({
    path: definition.restBase,
    item,
    list: `${item}List`,
    listKey: definition.restBase,
    schemas: { [item]: schema },
    examples,
  });
}

@Module({})
export class LinkedPostTypeModule {
  static forDefinition<
    TDetails extends { postId: number },
    TLink extends ObjectLiteral,
    TObject extends { id: number },
    TUpdate,
  >(definition: LinkedPostTypeDefinition<TDetails, TLink, TObject, TUpdate>): DynamicModule {
    if (definition.openApi) describeResponses(definition as never);
    const token = linkedServiceToken(definition.def.type);
    const link = definition.eventLink;
    const linkEntity = definition.tables.link ?? eventLinkEntity(link.table, link.column);
    const linkProperty = definition.tables.linkProperty ?? 'linkedId';
    return {
      module: LinkedPostTypeModule,
      imports: [
        PostsModule.forPostType(definition.def),
        TypeOrmModule.forFeature([definition.tables.details, linkEntity]),
      ],
      controllers: [createLinkedPostTypeController(definition as never)],
      providers: [
        {
          provide: token,
          inject: [
            DatabaseContext,
            WriteTransactions,
            PostRecordsService,
            AttachmentsService,
            SiteTime,
            AppConfig,
            LinkedPostExtensionRegistry,
            ShapedQueries,
            ConditionalWrites,
          ],
          useFactory: (
            db: DatabaseContext,
            transactions: WriteTransactions,
            records: PostRecordsService,
            attachments: AttachmentsService,
            siteTime: SiteTime,
            config: AppConfig,
            extensions: LinkedPostExtensionRegistry,
            shaped: ShapedQueries,
            conditional: ConditionalWrites,
          ) =>
            new LinkedPostTypeService(
              { db, transactions, records, attachments, siteTime, config, extensions, conditional },
              new LinkedPostsRepository<TDetails, ObjectLiteral>(db, shaped, {
                ...definition.tables,
                link: linkEntity,
                linkProperty,
                type: definition.def.type,
                parentType: CALENDAR_POST_TYPES.event,
                linkTable: link.table,
                linkColumn: link.column,
              }),
              definition,
            ),
        },
        EventLinksModule.link({ restBase: definition.restBase, ...link }, token),
        {
          provide: `${token}:changes`,
          inject: [token, ChangeSourceRegistry],
          useFactory: (
            service: LinkedPostTypeService<TDetails, ObjectLiteral, TObject, TUpdate, TUpdate>,
            registry: ChangeSourceRegistry,
          ) =>
            registry.add({
              resource: definition.def.noun,
              visibleObjects: (ids, ctx) => service.visibleObjects(ids, ctx),
            }),
        },
      ],
      exports: [token],
    };
  }
}
