import { DynamicModule, Module } from '@nestjs/common';
import { AuthModule } from './auth/auth.module';
import { DatesModule } from './common/dates/dates.module';
import { ListTotalsModule } from './common/pagination/list-totals.module';
import { AppConfigModule, type AppConfigOptions } from './config/app-config.module';
import { PostsModule } from './core/posts/posts.module';
import { TermsModule } from './core/terms/terms.module';
import { DatabaseModule } from './database/database.module';
import { DiscoveryModule } from './discovery/discovery.module';
import { HealthModule } from './health/health.module';
import { CategoriesModule } from './modules/categories/categories.module';
import { EventsModule } from './modules/events/events.module';
import { OrganizersModule } from './modules/organizers/organizers.module';
import { TagsModule } from './modules/tags/tags.module';
import { VenuesModule } from './modules/venues/venues.module';

/**
 * The application: configuration, database, the posts/terms base and the resource modules.
 * A resource module is added to `imports` and brings its own routes, entities and registrations.
 */
@Module({})
export class AppModule {
  static forRoot(options: AppConfigOptions = {}): DynamicModule {
    return {
      module: AppModule,
      imports: [
        AppConfigModule.forRoot(options),
        DatesModule,
        ListTotalsModule,
        DatabaseModule.forRoot(),
        AuthModule,
        TermsModule,
        PostsModule,
        EventsModule,
        VenuesModule,
        OrganizersModule,
        CategoriesModule,
        TagsModule,
        HealthModule,
        DiscoveryModule,
      ],
    };
  }
}
