import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { SiteTime } from '../../common/dates/site-time';
import { AppConfig } from '../../config/app-config';
import { WriteTransactions } from '../../database/write-transactions';
import { postFieldsInput } from '../../core/posts/dto/post-fields.dto';
import { AttachmentsService } from '../../core/posts/attachments/attachments.service';
import { LinkedPostTypeService, type LinkedPostTypeSpec } from '../events/linked/linked-post-type.service';
import { PostRecordsService } from '../../core/posts/post-records.service';
import { CreateVenueDto } from './dto/create-venue.dto';
import type { UpdateVenueDto } from './dto/update-venue.dto';
import type { EventVenueEntity } from './event-venue.entity';
import { VenueDetailsEntity } from './venue-details.entity';
import { toPlaceJsonLd, toVenueObject, type VenueObject } from './venue.mapper';
import { VENUE_POST_TYPE, VENUES_REST_BASE } from './venue.post-type';
import { VenuesRepository } from './venues.repository';

const TEXT_FIELDS = [
  'address',
  'city',
  'country',
  'province',
  'state',
  'zip',
  'phone',
  'stateprovince',
  'website',
] as const;

const VENUE_SPEC: LinkedPostTypeSpec<VenueDetailsEntity, VenueObject, UpdateVenueDto> = {
  def: VENUE_POST_TYPE,
  restBase: VENUES_REST_BASE,
  createDto: CreateVenueDto,
  nameOf: (dto) => dto.venue,
  postInput: postFieldsInput,
  newDetails: (postId) =>
    Object.assign(new VenueDetailsEntity(), {
      postId,
      ...Object.fromEntries(TEXT_FIELDS.map((f) => [f, ''])),
      showMap: null,
      showMapLink: null,
    }),
  applyDetails: (details, dto) => {
    for (const field of TEXT_FIELDS) {
      const value = dto[field];
      if (value !== undefined) details[field] = value.trim();
    }
    if (dto.show_map !== undefined) details.showMap = dto.show_map;
    if (dto.show_map_link !== undefined) details.showMapLink = dto.show_map_link;
  },
  toObject: toVenueObject,
  jsonLd: toPlaceJsonLd,
};

/** Venues (behaviour.md §8): the linked post type service with venue fields. */
@Injectable()
export class VenuesService extends LinkedPostTypeService<
  VenueDetailsEntity,
  EventVenueEntity,
  VenueObject,
  UpdateVenueDto,
  CreateVenueDto
> {
  constructor(
    dataSource: DataSource,
    transactions: WriteTransactions,
    repository: VenuesRepository,
    records: PostRecordsService,
    attachments: AttachmentsService,
    siteTime: SiteTime,
    config: AppConfig,
  ) {
    super({ dataSource, transactions, records, attachments, siteTime, config }, repository, VENUE_SPEC);
  }
}
