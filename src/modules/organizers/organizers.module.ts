import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { PostsModule } from '../../core/posts/posts.module';
import { EventOrganizerEntity } from './event-organizer.entity';
import { OrganizerDetailsEntity } from './organizer-details.entity';
import { EventLinksModule } from '../events/links/event-links.module';
import { ORGANIZER_EVENT_LINK } from './organizer.event-link';
import { ORGANIZER_POST_TYPE } from './organizer.post-type';
import { OrganizersController } from './organizers.controller';
import { OrganizersRepository } from './organizers.repository';
import { OrganizersService } from './organizers.service';

/** `/cal/events/v1/organizers`: a post type with an `organizer_details` companion; owns the event ↔ organizer links. */
@Module({
  imports: [
    PostsModule.forPostType(ORGANIZER_POST_TYPE),
    TypeOrmModule.forFeature([OrganizerDetailsEntity, EventOrganizerEntity]),
  ],
  controllers: [OrganizersController],
  providers: [OrganizersService, OrganizersRepository, EventLinksModule.link(ORGANIZER_EVENT_LINK, OrganizersService)],
  exports: [OrganizersService],
})
export class OrganizersModule {}
