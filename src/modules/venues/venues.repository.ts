import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { LinkedPostsRepository } from '../events/linked/linked-posts.repository';
import { CALENDAR_POST_TYPES } from '../calendar-post-types';
import { EventVenueEntity } from './event-venue.entity';
import { VenueDetailsEntity } from './venue-details.entity';

/** Venue queries: the linked-post queries over `venue_details` and `event_venues`. */
@Injectable()
export class VenuesRepository extends LinkedPostsRepository<VenueDetailsEntity, EventVenueEntity> {
  constructor(dataSource: DataSource) {
    super(dataSource, {
      type: CALENDAR_POST_TYPES.venue,
      parentType: CALENDAR_POST_TYPES.event,
      details: VenueDetailsEntity,
      link: EventVenueEntity,
      linkTable: 'event_venues',
      linkColumn: 'venue_id',
      linkProperty: 'venueId',
      searchColumns: [
        'p.title',
        'p.content',
        'p.excerpt',
        'd.address',
        'd.city',
        'd.province',
        'd.state',
        'd.zip',
        'd.phone',
      ],
    });
  }
}
