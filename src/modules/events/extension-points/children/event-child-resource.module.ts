import { Module, type DynamicModule } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { SiteTime } from '../../../../common/dates/site-time';
import { defineError } from '../../../../common/errors/extension-errors';
import { responseSchemaRegistry } from '../../../../common/http/response-schema-registry';
import { AppConfig } from '../../../../config/app-config';
import { DatabaseContext } from '../../../../database/database-context';
import { WriteTransactions } from '../../../../database/write-transactions';
import { EventChildren } from './event-children';
import { EventsModule } from '../../events.module';
import type { EventChildEntity, EventChildResourceDefinition } from './event-child-resource';
import { childServiceToken, createEventChildController } from './event-child.controller';
import { EventChildService } from './event-child.service';

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
      schemas: { [item]: def.openApi.schema },
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
          inject: [DatabaseContext, WriteTransactions, EventChildren, SiteTime, AppConfig],
          useFactory: (...deps: [DatabaseContext, WriteTransactions, EventChildren, SiteTime, AppConfig]) =>
            new EventChildService(def, notFound, ...deps),
        },
      ],
      exports: [token],
    };
  }
}
