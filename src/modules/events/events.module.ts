import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { PostsModule } from '../../core/posts/posts.module';
import { ListTotalsModule } from '../../common/pagination/list-totals.module';
import { EventDetailsEntity } from './event-details.entity';
import { EventListingDays } from './event-listing-days';
import { EventSearchIndex } from './event-search-index';
import { EventSearchPlan } from './event-search-plan';
import { EventListingPlan } from './event-listing-plan';
import { EVENT_POST_TYPE } from './event.post-type';
import { EventsController } from './events.controller';
import { EventFeedController } from './ical/event-feed.controller';
import { EventFeedService } from './ical/event-feed.service';
import { EventsRepository } from './events.repository';
import { EventObjectsService } from './event-objects.service';
import { EventWritesService } from './event-writes.service';
import { EventsQueryService } from './events-query.service';
import { EventChangeSource } from './event-change-source';
import { EventLinksModule } from './links/event-links.module';
import { LinkedRecordsReader } from './linked/linked-records.reader';
import { DocumentFormat } from './documents/document-format';
import { EventDocumentBodyEntity } from './documents/event-document-body.entity';
import { EventDocumentEntity } from './documents/event-document.entity';
import { EventDocumentFormatEntity } from './documents/event-document-format.entity';
import { EventDocuments } from './documents/event-documents.service';
import { EventChildren } from './event-children';
import { EventArchive } from './event-archive';
import { EventZoneRebase } from './event-zone-rebase';
import { WithDerivedStores } from '../../database/derived-stores';
import { SEARCH_WORDS_STORE } from './event-search-rows';
import { EventRecordWriter } from './event-record-writer';
import { EventSeriesEntity } from './recurrence/event-series.entity';
import { SeriesHorizon } from './recurrence/series-horizon';
import { SeriesRepository } from './recurrence/series.repository';
import { SeriesWrites } from './recurrence/series-writes.service';

/**
 * `/cal/events/v1/events`: the event post type with its categories and tags, and whatever other post
 * types declare links to it (`EventLinksModule.link`): venues and organizers, a team's own.
 */
@Module({
  imports: [
    PostsModule.forPostType(EVENT_POST_TYPE),
    TypeOrmModule.forFeature([
      EventDetailsEntity,
      EventDocumentEntity,
      EventDocumentBodyEntity,
      EventDocumentFormatEntity,
      EventSeriesEntity,
    ]),
    EventLinksModule,
    ListTotalsModule,
  ],
  // The feed's routes first: `events/:id` would take `events/5.ics`.
  controllers: [EventFeedController, EventsController],
  providers: [
    EventsQueryService,
    EventWritesService,
    EventObjectsService,
    EventsRepository,
    EventListingDays,
    EventSearchIndex,
    EventListingPlan,
    EventSearchPlan,
    EventFeedService,
    EventChangeSource,
    LinkedRecordsReader,
    EventDocuments,
    DocumentFormat,
    EventChildren,
    EventArchive,
    EventZoneRebase,
    EventRecordWriter,
    SeriesRepository,
    SeriesWrites,
    SeriesHorizon,
  ],
  exports: [EventsQueryService, EventChildren, EventWritesService],
})
@WithDerivedStores(SEARCH_WORDS_STORE)
export class EventsModule {}
