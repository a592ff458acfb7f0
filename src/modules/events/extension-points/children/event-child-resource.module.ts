import { Module, type DynamicModule } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { SiteTime } from '../../../../common/dates/site-time';
import { defineError } from '../../../../common/errors/extension-errors';
import { responseSchemaRegistry, type ResponseSchema } from '../../../../common/http/response-schema-registry';
import { AppConfig } from '../../../../config/app-config';
import { DatabaseContext } from '../../../../database/database-context';
import { WriteTransactions } from '../../../../database/write-transactions';
import { CommitSteps } from '../../../../database/commit-steps';
import { ConditionalWrites } from '../../../../core/changes/conditional-writes';
import { EVENT_POST_TYPE } from '../../model/event.post-type';
import { EventChildren } from './event-children';
import { EventsModule } from '../../events.module';
import type { EventChildEntity, EventChildResourceDefinition } from './event-child-resource';
import { childServiceToken, createEventChildController } from './event-child.controller';
import { EventChildService } from './event-child.service';
import { EventChildRegistry } from './event-child-registry';

/** The item's schema, with `outside_event` when the definition reports records an event's move leaves out. */
function withParentMembers(def: EventChildResourceDefinition<EventChildEntity, object, object>): ResponseSchema {
  const schema = def.openApi.schema;
  if (def.parent?.whenEventMoves !== 'report') return schema;
  const properties = (schema.properties ?? {}) as Record<string, ResponseSchema>;
  const required = Array.isArray(schema.required) ? (schema.required as string[]) : [];
  return {
    ...schema,
    properties: { ...properties, outside_event: { type: 'boolean' } },
    required: [...required, 'outside_event'],
  };
}

/**
 * A child resource of events from its declaration:
 * `@Module({ imports: [EventChildResourceModule.forDefinition(TICKETS)] })`. Its service is exported under
 * `childServiceToken(path)`; the module's own providers (an event field that sums the children up, a list
 * filter) sit beside it.
 */
@Module({})
export class EventChildResourceModule {
  static forDefinition<TEntity extends EventChildEntity, TCreate extends object, TUpdate extends object>(
    definition: EventChildResourceDefinition<TEntity, TCreate, TUpdate>,
  ): DynamicModule {
    const def = definition as unknown as EventChildResourceDefinition<EventChildEntity, object, object>;
    const item = def.noun.charAt(0).toUpperCase() + def.noun.slice(1);
    const notFound = defineError(`${def.noun}_not_found`, {
      status: 404,
      code: `rest-${def.noun}-not-found`,
      message: def.texts.notFound,
    });
    responseSchemaRegistry.addResource({
      path: `events/{id}/${def.path}`,
      item,
      list: `${item}List`,
      listKey: def.path,
      schemas: { [item]: withParentMembers(def) },
      examples: def.openApi.examples,
    });
    const token = childServiceToken(def.path);
    return {
      module: EventChildResourceModule,
      imports: [EventsModule, TypeOrmModule.forFeature([def.entity])],
      controllers: [createEventChildController(def)],
      providers: [
        {
          provide: token,
          inject: [
            DatabaseContext,
            WriteTransactions,
            EventChildren,
            SiteTime,
            AppConfig,
            ConditionalWrites,
            CommitSteps,
            EventChildRegistry,
          ],
          useFactory: (
            db: DatabaseContext,
            transactions: WriteTransactions,
            children: EventChildren,
            siteTime: SiteTime,
            config: AppConfig,
            conditional: ConditionalWrites,
            commitSteps: CommitSteps,
            registry: EventChildRegistry,
          ) => {
            const service = new EventChildService(def, notFound, {
              db,
              transactions,
              children,
              siteTime,
              config,
              conditional,
            });
            // An edit of events that would leave records outside them is refused inside its transaction.
            if (def.parent?.whenEventMoves === 'refuse') {
              commitSteps.add((changes) =>
                service.assertEventsKeepChildren(
                  changes
                    .filter((c) => c.resource === EVENT_POST_TYPE.noun && c.action !== 'deleted')
                    .map((c) => c.resourceId),
                ),
              );
            }
            registry.register({
              path: def.path,
              replaceAll: (id, objects, ctx) => service.replaceAll(id, objects, ctx),
            });
            return service;
          },
        },
      ],
      exports: [token],
    };
  }
}
