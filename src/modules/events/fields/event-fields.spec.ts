import { describe, expect, it } from '@jest/globals';
import { BooleanField, IntegerField } from '../../../common/validation/fields';
import type { PostEntity } from '../../../core/posts/post.entity';
import { CreateEventDto } from '../rest/dto/create-event.dto';
import type { ListEventsQueryDto } from '../rest/dto/list-events-query.dto';
import type { EventDetailsEntity } from '../model/event-details.entity';
import {
  assertWriteFieldsClassified,
  declareEventField,
  declareEventListParam,
  isOccurrenceOwn,
  seriesSharingOf,
} from './event-field-declarations';
import { EVENT_WRITE_FIELDS, templateFieldsOf } from './event-write-fields';
import { listEchoOf } from './list-echo';

const post = { content: '<p>Body</p>', excerpt: 'Short', parentId: 7 } as PostEntity;
const details = {
  cost: '5 - 9',
  website: 'https://example.org/',
  showMap: false,
  showMapLink: true,
  hideFromListings: true,
  sticky: false,
  featured: true,
} as EventDetailsEntity;

describe('the catalogue of event write fields', () => {
  it('keeps in a series template every field it shares, read from an occurrence as stored', () => {
    expect(templateFieldsOf({ post, details })).toEqual({
      description: '<p>Body</p>',
      excerpt: 'Short',
      post_parent: 7,
      cost: '5 - 9',
      website: 'https://example.org/',
      show_map: false,
      show_map_link: true,
      hide_from_listings: true,
      sticky: false,
      featured: true,
    });
  });

  it('leaves the times and the slug to each occurrence, and shares the rest in an edit of the series', () => {
    const own = Object.keys(EVENT_WRITE_FIELDS).filter(isOccurrenceOwn);
    expect(own.sort()).toEqual(['all_day', 'end_date', 'slug', 'start_date', 'timezone']);
    expect(isOccurrenceOwn('featured')).toBe(false);
    expect(isOccurrenceOwn('status')).toBe(false);
  });

  it("takes a module's write field as shared unless it says each occurrence keeps its own", () => {
    declareEventField({
      name: 'capacity_test',
      schema: { type: 'integer' },
      writeRule: IntegerField({ description: { en: 'Seats.', de: 'Plätze.' }, min: 0 }),
    });
    declareEventField({
      name: 'seat_map_test',
      schema: { type: 'integer' },
      writeRule: IntegerField({ description: { en: 'Seats.', de: 'Plätze.' }, min: 0 }),
      series: 'own',
    });
    expect(seriesSharingOf('capacity_test')).toBe('template');
    expect(isOccurrenceOwn('seat_map_test')).toBe(true);
    expect(() => assertWriteFieldsClassified()).not.toThrow();
  });

  it('refuses to start when a write field of the DTO says nothing of series', () => {
    // As a newcomer would add one: straight onto the DTO, past the catalogue and the declaration.
    BooleanField({ description: { en: 'Loose.', de: 'Lose.' } })(CreateEventDto.prototype, 'loose_flag');
    expect(() => assertWriteFieldsClassified()).toThrow(/loose_flag/);
  });
});

describe('the list parameters repeated in rest_url', () => {
  it('repeats every declared parameter as given, the window as applied, and leaves paging to the envelope', () => {
    declareEventListParam('min_capacity_test', IntegerField({ description: { en: 'Seats.', de: 'Plätze.' }, min: 0 }));
    const query = {
      page: 2,
      per_page: 5,
      start_date: 'tomorrow',
      featured: true,
      categories: ['music'],
      min_capacity_test: 10,
    } as unknown as ListEventsQueryDto;
    const echo = listEchoOf(query, { start_date: '2030-03-02 00:00:00', end_date: '2032-03-02 23:59:59' });
    expect(echo).toMatchObject({
      start_date: '2030-03-02 00:00:00',
      end_date: '2032-03-02 23:59:59',
      featured: true,
      categories: ['music'],
      min_capacity_test: 10,
    });
    expect(Object.keys(echo)).not.toContain('page');
    expect(Object.keys(echo)).not.toContain('per_page');
    // Every contract filter is known to the echo even when not given (the OpenAPI document lists the same).
    for (const name of ['starts_before', 'search', 'tags', 'status', 'include', 'post_parent', 'modified_after'])
      expect(Object.keys(echo)).toContain(name);
  });
});
