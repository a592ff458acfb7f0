import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { PostsModule } from '../../core/posts/posts.module';
import { EventVenueEntity } from './event-venue.entity';
import { VenueDetailsEntity } from './venue-details.entity';
import { EventLinksModule } from '../events/links/event-links.module';
import { VENUE_EVENT_LINK } from './venue.event-link';
import { VENUE_POST_TYPE } from './venue.post-type';
import { VenuesController } from './venues.controller';
import { VenuesRepository } from './venues.repository';
import { VenuesService } from './venues.service';

/** `/cal/events/v1/venues`: a post type with a `venue_details` companion; owns the event ↔ venue links. */
@Module({
  imports: [PostsModule.forPostType(VENUE_POST_TYPE), TypeOrmModule.forFeature([VenueDetailsEntity, EventVenueEntity])],
  controllers: [VenuesController],
  providers: [VenuesService, VenuesRepository, EventLinksModule.link(VENUE_EVENT_LINK, VenuesService)],
  exports: [VenuesService],
})
export class VenuesModule {}
