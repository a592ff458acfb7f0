import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { LinkedPostsRepository } from '../events/linked/linked-posts.repository';
import { CALENDAR_POST_TYPES } from '../calendar-post-types';
import { EventOrganizerEntity } from './event-organizer.entity';
import { OrganizerDetailsEntity } from './organizer-details.entity';

/** Organizer queries: the linked-post queries over `organizer_details` and `event_organizers`. */
@Injectable()
export class OrganizersRepository extends LinkedPostsRepository<OrganizerDetailsEntity, EventOrganizerEntity> {
  constructor(dataSource: DataSource) {
    super(dataSource, {
      type: CALENDAR_POST_TYPES.organizer,
      parentType: CALENDAR_POST_TYPES.event,
      details: OrganizerDetailsEntity,
      link: EventOrganizerEntity,
      linkTable: 'event_organizers',
      linkColumn: 'organizer_id',
      linkProperty: 'organizerId',
      searchColumns: ['p.title', 'p.content', 'p.excerpt', 'd.phone', 'd.email', 'd.website'],
    });
  }
}
