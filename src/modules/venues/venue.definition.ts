import type { LinkedPostTypeDefinition } from '../events';
import { CreateVenueDto } from './dto/create-venue.dto';
import { ListVenuesQueryDto } from './dto/list-venues-query.dto';
import { UpdateVenueDto } from './dto/update-venue.dto';
import { EventVenueEntity } from './event-venue.entity';
import { VenueDetailsEntity } from './venue-details.entity';
import { VENUE_EVENT_LINK } from './venue.event-link';
import { toPlaceJsonLd, toVenueObject, type VenueObject } from './venue.mapper';
import { VENUE_POST_TYPE, VENUES_REST_BASE } from './venue.post-type';

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

/** Venues (behaviour.md §8): a linked post type with a `venue_details` companion, linked one per event. */
export const VENUE_DEFINITION: LinkedPostTypeDefinition<
  VenueDetailsEntity,
  EventVenueEntity,
  VenueObject,
  UpdateVenueDto
> = {
  def: VENUE_POST_TYPE,
  restBase: VENUES_REST_BASE,
  createDto: CreateVenueDto,
  updateDto: UpdateVenueDto,
  listQueryDto: ListVenuesQueryDto,
  nameOf: (dto) => dto.venue,
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
  tables: {
    details: VenueDetailsEntity,
    link: EventVenueEntity,
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
  },
  eventLink: VENUE_EVENT_LINK,
  texts: {
    en: { a: 'a venue', the: 'venue', many: 'venues' },
    de: { a: 'einen Veranstaltungsort', of: 'des Veranstaltungsorts', many: 'Veranstaltungsorte' },
  },
};
