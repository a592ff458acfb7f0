import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { PostsModule } from '../../core/posts/posts.module';
import { OrganizersModule } from '../organizers/organizers.module';
import { VenuesModule } from '../venues/venues.module';
import { EventDetailsEntity } from './event-details.entity';
import { EVENT_POST_TYPE } from './event.post-type';
import { EventsController } from './events.controller';
import { EventsRepository } from './events.repository';
import { EventsService } from './events.service';

/** `/cal/events/v1/events`: the event post type, linking venues, organizers, categories and tags. */
@Module({
  imports: [
    PostsModule.forPostType(EVENT_POST_TYPE),
    TypeOrmModule.forFeature([EventDetailsEntity]),
    VenuesModule,
    OrganizersModule,
  ],
  controllers: [EventsController],
  providers: [EventsService, EventsRepository],
  exports: [EventsService],
})
export class EventsModule {}
