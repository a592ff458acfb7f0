import { ImportsModule } from './modules/imports/imports.module';
import { DynamicModule, Module, type Type } from '@nestjs/common';
import { AuthModule } from './auth/auth.module';
import { DatesModule } from './common/dates/dates.module';
import { ResponseCacheModule } from './common/http/response-cache/response-cache.module';
import { BackgroundModule } from './common/background/background.module';
import { RedisModule } from './common/redis/redis.module';
import { ListTotalsModule } from './common/pagination/list-totals.module';
import { AppConfigModule, type AppConfigOptions } from './config/app-config.module';
import { ChangesModule } from './core/changes/changes.module';
import { PostsModule } from './core/posts/posts.module';
import { TermsModule } from './core/terms/terms.module';
import { DatabaseModule } from './database/database.module';
import { derivedStoresOf } from './database/derived-stores';
import { migrationsOf } from './database/module-migrations';
import { DiscoveryModule } from './discovery/discovery.module';
import { OperationsModule } from './operations/operations.module';
import { CategoriesModule } from './modules/categories/categories.module';
import { EventsModule } from './modules/events';
import { GeoModule } from './modules/geo/geo.module';
import { OrganizersModule } from './modules/organizers/organizers.module';
import { TagsModule } from './modules/tags/tags.module';
import { VenuesModule } from './modules/venues/venues.module';
import { WebhooksModule } from './modules/webhooks/webhooks.module';

/** The calendar's resource modules, in the order they register. A team's own module goes after them. */
export const CALENDAR_MODULES: readonly Type[] = [
  EventsModule,
  VenuesModule,
  OrganizersModule,
  CategoriesModule,
  TagsModule,
  GeoModule,
  ImportsModule,
];

export interface AppModuleOptions extends AppConfigOptions {
  /** The resource modules to run; the calendar's by default (`[...CALENDAR_MODULES, SpeakersModule]`). */
  modules?: readonly Type[];
}

/**
 * The application: configuration, database, the posts/terms base and the resource modules.
 * A resource module brings its own routes, entities and registrations; the base checks at start-up that
 * what they declare fits together (a post type's taxonomies are registered, for one).
 */
@Module({})
export class AppModule {
  static forRoot(options: AppModuleOptions = {}): DynamicModule {
    return {
      module: AppModule,
      imports: [
        AppConfigModule.forRoot(options),
        DatesModule,
        ListTotalsModule,
        RedisModule,
        BackgroundModule,
        ResponseCacheModule,
        DatabaseModule.forRoot(
          migrationsOf(options.modules ?? CALENDAR_MODULES),
          derivedStoresOf(options.modules ?? CALENDAR_MODULES),
        ),
        AuthModule,
        ChangesModule,
        TermsModule,
        PostsModule,
        ...(options.modules ?? CALENDAR_MODULES),
        WebhooksModule,
        OperationsModule.forRoot((options.modules ?? []).filter((m) => !CALENDAR_MODULES.includes(m))),
        DiscoveryModule,
      ],
    };
  }
}
