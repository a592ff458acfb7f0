import type { ICalEventData } from 'ical-generator';
import { moduleIcalMembers } from '../fields/event-field-declarations';
import { icalText, text } from './ical-text';
import type { VeventSource } from './vevent-times';
import { VEVENT_MEMBER_LIST } from './vevent-members';

/**
 * The venue as LOCATION, one line: its name, then its address, comma-separated (as TEC's export writes it;
 * ical-generator's `address` would add a second line) and GEO when the geo module gave coordinates.
 */
function locationOf(venue: unknown): ICalEventData['location'] {
  if (!venue || Array.isArray(venue) || typeof venue !== 'object') return undefined;
  const v = venue as Record<string, unknown>;
  const title = text(v.venue);
  const address = [v.address, v.city, v.stateprovince, v.zip, v.country].map(text).filter((p) => p !== '');
  const lat = Number(v.geo_lat);
  const lon = Number(v.geo_lng);
  const geo = v.geo_lat !== undefined && Number.isFinite(lat) && Number.isFinite(lon) ? { lat, lon } : undefined;
  if (title === '' && !geo) return undefined;
  return { title: [title, ...address].filter((p) => p !== '').join(', '), geo };
}

/**
 * ORGANIZER holds one calendar address: the first organizer with an e-mail. A double quote cannot appear in
 * a quoted parameter value (RFC 5545 §3.1), so one in the name becomes a single quote.
 */
function organizerOf(organizers: unknown): ICalEventData['organizer'] {
  if (!Array.isArray(organizers)) return undefined;
  for (const organizer of organizers as Record<string, unknown>[]) {
    const email = text(organizer.email);
    if (email !== '') return { name: text(organizer.organizer).replace(/"/g, "'") || email, email };
  }
  return undefined;
}

/** The properties modules declare for their members (`X-` names), as text; empty ones left out. */
function moduleProperties(event: VeventSource): { key: string; value: string }[] {
  const properties: { key: string; value: string }[] = [];
  for (const { name, property, text: textOf } of moduleIcalMembers()) {
    const value = event[name] === undefined ? undefined : textOf(event[name]);
    if (value !== undefined && value !== '') properties.push({ key: property, value: icalText(value) });
  }
  return properties;
}

/**
 * One VEVENT from the event object the caller may see (behaviour.md §5): a protected event read without
 * its password is already blanked there, so its feed entry has no description, place, organizer or
 * categories either. Each member the catalogue writes (`VEVENT_MEMBERS`) gives its properties; the links'
 * (venue, organizer) and the modules' (`X-` properties) follow.
 */
export function toICalEventData(
  event: VeventSource,
  hasZone: (zone: string) => boolean,
  changedUtc?: string | null,
): ICalEventData {
  const data: Partial<ICalEventData> = {};
  const context = { hasZone, changedUtc: changedUtc ?? null };
  for (const [name, use] of VEVENT_MEMBER_LIST)
    if ('write' in use) Object.assign(data, use.write(event[name], event, context));
  return {
    ...data,
    start: data.start!,
    location: locationOf(event.venue),
    organizer: organizerOf(event.organizer),
    x: moduleProperties(event),
  };
}
