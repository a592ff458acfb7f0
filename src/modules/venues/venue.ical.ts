import type { ICalEventData } from 'ical-generator';
import { icalTextOf as text } from '../events';

/**
 * The venue as LOCATION, one line: its name, then its address, comma-separated (as TEC's export writes it;
 * ical-generator's `address` would add a second line) and GEO when the geo module gave coordinates.
 */
export function venueLocation([venue]: Record<string, unknown>[]): Partial<ICalEventData> {
  const title = text(venue.venue);
  const address = [venue.address, venue.city, venue.stateprovince, venue.zip, venue.country]
    .map(text)
    .filter((p) => p !== '');
  const lat = Number(venue.geo_lat);
  const lon = Number(venue.geo_lng);
  const geo = venue.geo_lat !== undefined && Number.isFinite(lat) && Number.isFinite(lon) ? { lat, lon } : undefined;
  if (title === '' && !geo) return {};
  return { location: { title: [title, ...address].filter((p) => p !== '').join(', '), geo } };
}
