import { Module } from '@nestjs/common';
import { responseSchemaRegistry } from '../../common/http/response-schema-registry';
import { eventComponentSchema } from './fields/event-component';
import { TypeOrmModule } from '@nestjs/typeorm';
import { PostsModule } from '../../core/posts/posts.module';
import { ListTotalsModule } from '../../common/pagination/list-totals.module';
import { EventDetailsEntity } from './model/event-details.entity';
import { EventListingDays } from './derived/event-listing-days';
import { EventSearchIndex } from './derived/event-search-index';
import { EventSearchPlan } from './archive/event-search-plan';
import { EventListingPlan } from './archive/event-listing-plan';
import { EVENT_POST_TYPE } from './model/event.post-type';
import { EventsController } from './rest/events.controller';
import { EventFeedController } from './ical/event-feed.controller';
import { EventFeedService } from './ical/event-feed.service';
import { FeedBody } from './ical/feed-body';
import { EventsRepository } from './archive/events.repository';
import { EventObjectsService } from './model/event-objects.service';
import { EventWritesService } from './rest/event-writes.service';
import { EventsQueryService } from './rest/events-query.service';
import { EventChangeSource } from './model/event-change-source';
import { EventLinksModule } from './extension-points/links/event-links.module';
import { LinkedRecordsReader } from './extension-points/linked/linked-records.reader';
import { DocumentFormat } from './derived/documents/document-format';
import { EventDocumentBodyEntity } from './derived/documents/event-document-body.entity';
import { EventDocumentEntity } from './derived/documents/event-document.entity';
import { EventDocumentFormatEntity } from './derived/documents/event-document-format.entity';
import { EventDocuments } from './derived/documents/event-documents.service';
import { EventChildren } from './extension-points/children/event-children';
import { EventArchive } from './archive/event-archive';
import { FeedRows } from './archive/feed-rows.repository';
import { EventZoneRebase } from './derived/event-zone-rebase';
import { WithDerivedStores } from '../../database/derived-stores';
import { SEARCH_WORDS_STORE } from './derived/event-search-rows';
import { EventRecordWriter } from './model/event-record-writer';
import { EventSeriesEntity } from './recurrence/event-series.entity';
import { SeriesHorizon } from './recurrence/series-horizon';
import { SeriesRepository } from './recurrence/series.repository';
import { SeriesWrites } from './recurrence/series-writes.service';
import { SeriesTemplates } from './recurrence/series-templates';

responseSchemaRegistry.addComponent('Event', eventComponentSchema());

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
    FeedBody,
    EventChangeSource,
    LinkedRecordsReader,
    EventDocuments,
    DocumentFormat,
    EventChildren,
    EventArchive,
    FeedRows,
    EventZoneRebase,
    EventRecordWriter,
    SeriesRepository,
    SeriesWrites,
    SeriesTemplates,
    SeriesHorizon,
  ],
  exports: [EventsQueryService, EventChildren, EventWritesService],
})
@WithDerivedStores(SEARCH_WORDS_STORE)
export class EventsModule {}
