import { describe, expect, it } from '@jest/globals';
import type { RequestContext } from '../../../../common/http/request-context';
import { AttachmentDetailsEntity } from '../../../../core/posts/attachments/attachment-details.entity';
import { PostEntity } from '../../../../core/posts/post.entity';
import { OrganizerDetailsEntity } from '../../../organizers/organizer-details.entity';
import { toOrganizerObject } from '../../../organizers/organizer.mapper';
import { VenueDetailsEntity } from '../../../venues/venue-details.entity';
import { toVenueObject } from '../../../venues/venue.mapper';

const ctx = {
  kind: 'request-context',
  user: null,
  siteUrl: 'https://cal.example.org',
  restBase: 'https://cal.example.org/api',
  namespaceUrl: 'https://cal.example.org/api/cal/events/v1',
  dialect: 'cal',
} as RequestContext;

const post = (values: Partial<PostEntity>): PostEntity =>
  Object.assign(new PostEntity(), {
    id: 42,
    type: 'tribe_venue',
    slug: 'the-hall',
    title: 'The Hall',
    content: '<p>Big</p>',
    excerpt: '',
    status: 'publish',
    authorId: 3,
    passwordHash: null,
    dateLocal: '2030-01-01 10:00:00',
    dateUtc: '2030-01-01 09:00:00',
    modifiedLocal: '2030-01-02 10:00:00',
    modifiedUtc: '2030-01-02 09:00:00',
    ...values,
  });

const HEAD = ['id', 'author', 'status', 'date', 'date_utc', 'modified', 'modified_utc', 'url', 'rest_url'];

describe('venue and organizer objects (behaviour.md §8)', () => {
  it('list their members in the reference order, leaving out empty ones', () => {
    const details = Object.assign(new VenueDetailsEntity(), {
      postId: 42,
      address: 'Main St 1',
      city: 'Berlin',
      country: 'Germany',
      province: '',
      state: '',
      zip: '10115',
      phone: '',
      stateprovince: '',
      website: 'https://hall.example',
      showMap: null,
      showMapLink: false,
    });
    const venue = toVenueObject(post({}), details, undefined, ctx, '2031-01-01 00:00:00');
    expect(Object.keys(venue)).toEqual([
      ...HEAD,
      'venue',
      'description',
      'slug',
      'global_id',
      'global_id_lineage',
      'address',
      'city',
      'country',
      'zip',
      'website',
      'show_map',
      'show_map_link',
    ]);
    expect(venue).toMatchObject({
      id: 42,
      venue: 'The Hall',
      url: 'https://cal.example.org/venue/the-hall/',
      rest_url: 'https://cal.example.org/api/cal/events/v1/venues/42',
      global_id: 'cal.example.org?id=42',
      global_id_lineage: ['cal.example.org?id=42'],
      show_map: true,
      show_map_link: false,
    });
  });

  it('carry an image and an excerpt when they have one, and the status a scheduled post has come to', () => {
    const details = Object.assign(new OrganizerDetailsEntity(), { postId: 42, phone: '555', website: '', email: '' });
    const image = Object.assign(new AttachmentDetailsEntity(), { postId: 7, url: 'https://img.example/a.png' });
    const organizer = toOrganizerObject(
      post({ type: 'tribe_organizer', excerpt: 'Short', status: 'future' }),
      details,
      image,
      ctx,
      '2031-01-01 00:00:00',
    );
    expect(Object.keys(organizer)).toEqual([
      ...HEAD,
      'organizer',
      'description',
      'excerpt',
      'slug',
      'image',
      'global_id',
      'global_id_lineage',
      'phone',
    ]);
    expect(organizer).toMatchObject({ status: 'publish', url: 'https://cal.example.org/organizer/the-hall/' });
  });
});
