import type { RequestContext } from '../../common/http/request-context';
import type { AttachmentDetailsEntity } from '../../core/posts/attachments/attachment-details.entity';
import { setIfPresent, withoutEmpty } from '../../core/posts/post.mapper';
import { linkedObjectHead } from '../events';
import type { PostEntity } from '../../core/posts/post.entity';
import type { VenueDetailsEntity } from './venue-details.entity';
import { VENUE_POST_TYPE, VENUES_REST_BASE } from './venue.post-type';

export type VenueObject = Record<string, unknown> & { id: number; venue: string };

const US_NAMES = new Set(['us', 'usa', 'united states', 'united states of america']);

/** The stored value, else the state for US (or country-less) venues, else the province. */
export function deriveStateProvince(
  details: Pick<VenueDetailsEntity, 'stateprovince' | 'state' | 'province' | 'country'>,
): string {
  if (details.stateprovince !== '') return details.stateprovince;
  const country = details.country.trim().toLowerCase();
  return country === '' || US_NAMES.has(country) ? details.state : details.province;
}

/** The venue object of behaviour.md §8; keys with empty values are left out, as the reference does. */
export function toVenueObject(
  post: PostEntity,
  details: VenueDetailsEntity,
  image: AttachmentDetailsEntity | undefined,
  ctx: RequestContext,
  nowUtc: string,
): VenueObject {
  const venue = linkedObjectHead(VENUE_POST_TYPE, VENUES_REST_BASE, post, image, ctx, nowUtc);
  setIfPresent(venue, 'address', details.address);
  setIfPresent(venue, 'city', details.city);
  setIfPresent(venue, 'country', details.country);
  setIfPresent(venue, 'province', details.province);
  setIfPresent(venue, 'state', details.state);
  setIfPresent(venue, 'zip', details.zip);
  setIfPresent(venue, 'phone', details.phone);
  setIfPresent(venue, 'stateprovince', deriveStateProvince(details));
  setIfPresent(venue, 'website', details.website);
  venue.show_map = details.showMap ?? true;
  venue.show_map_link = details.showMapLink ?? true;
  return venue as VenueObject;
}

/** schema.org `Place`, for single reads. */
export function toPlaceJsonLd(venue: VenueObject): Record<string, unknown> {
  const address = withoutEmpty({
    '@type': 'PostalAddress',
    streetAddress: venue.address,
    addressLocality: venue.city,
    addressRegion: venue.stateprovince,
    postalCode: venue.zip,
    addressCountry: venue.country,
  });
  return withoutEmpty({
    '@context': 'http://schema.org',
    '@type': 'Place',
    name: venue.venue,
    description: venue.description,
    url: venue.url,
    address: Object.keys(address).length > 1 ? address : undefined,
    telephone: venue.phone,
    sameAs: venue.website,
  });
}
