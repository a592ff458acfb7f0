import { compile } from 'html-to-text';
import { ICalEventClass, ICalEventStatus, type ICalEventData } from 'ical-generator';
import { DateTime } from 'luxon';
import { moduleIcalMembers } from '../fields/event-field-declarations';

/** SEQUENCE counts seconds of modification time from here: it grows with every edit and fits 32 bits until 2088. */
const SEQUENCE_EPOCH_MS = Date.UTC(2020, 0, 1);

/** An event object (or the members of one a VEVENT is written from), read defensively. */
type VeventSource = Readonly<Record<string, unknown>>;

const utcOf = (sql: string): DateTime => DateTime.fromSQL(sql, { zone: 'utc' });

/**
 * Characters RFC 5545 §3.3.11 allows in no TEXT value: C0 controls but tab and line feed (a line feed is
 * written as `\n`; a carriage return is dropped), DEL, and the C1 controls, which strict parsers refuse as
 * well. A title pasted from a terminal or a word processor can carry them.
 */
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const CONTROL_CHARACTERS = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F]/g;

export const icalText = (value: string): string => value.replace(CONTROL_CHARACTERS, '');

const text = (value: unknown): string => (typeof value === 'string' ? icalText(value).trim() : '');

// Compiled once: \`convert\` builds its selector tables on every call, which cost a feed ~1 ms per event.
const htmlToText = compile({
  wordwrap: false,
  selectors: [
    { selector: 'a', options: { hideLinkHrefIfSameAsText: true } },
    { selector: 'img', format: 'skip' },
    { selector: 'h1', options: { uppercase: false } },
    { selector: 'h2', options: { uppercase: false } },
    { selector: 'h3', options: { uppercase: false } },
    { selector: 'table', format: 'dataTable' },
  ],
});

/**
 * The texts of the last descriptions converted: a series' occurrences (and many events of one organizer)
 * share theirs, and html-to-text costs a fraction of a millisecond each time.
 */
const recentTexts = new Map<string, string>();
const RECENT_TEXTS = 256;
const CACHED_HTML_LENGTH = 8192;

/** HTML to the plain text DESCRIPTION wants: paragraphs and lists kept as lines, images dropped. */
export function plainTextOf(html: string): string {
  if (html.trim() === '') return '';
  const known = recentTexts.get(html);
  if (known !== undefined) return known;
  const plain = icalText(htmlToText(html)).trim();
  if (html.length <= CACHED_HTML_LENGTH) {
    if (recentTexts.size >= RECENT_TEXTS) recentTexts.delete(recentTexts.keys().next().value!);
    recentTexts.set(html, plain);
  }
  return plain;
}

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

/**
 * Start and end: all-day events as dates (the end exclusive, the day after the last), timed events in
 * their own zone when a VTIMEZONE can describe it, else in UTC (fixed offsets such as `UTC+2`).
 */
function timesOf(
  event: VeventSource,
  hasZone: (zone: string) => boolean,
): Pick<ICalEventData, 'start' | 'end' | 'allDay' | 'timezone'> {
  const zone = text(event.timezone);
  if (event.all_day === true) {
    const day = (local: string) => DateTime.fromISO(local.slice(0, 10), { zone: 'utc' });
    return {
      allDay: true,
      start: day(String(event.start_date)),
      end: day(String(event.end_date)).plus({ days: 1 }),
    };
  }
  const start = utcOf(String(event.utc_start_date));
  const end = utcOf(String(event.utc_end_date));
  if (zone !== '' && hasZone(zone)) return { start: start.setZone(zone), end: end.setZone(zone), timezone: zone };
  return { start: start.toJSDate(), end: end.toJSDate() };
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
 * categories either. UID is the `global_id`, which never changes with edits.
 */
export function toICalEventData(
  event: VeventSource,
  hasZone: (zone: string) => boolean,
  changedUtc?: string | null,
): ICalEventData {
  // What a subscriber sees changes when a venue, organizer or category shown in the event changes too
  // (`change_heads`): SEQUENCE and LAST-MODIFIED must move then, or clients keep the old LOCATION.
  const own = String(event.modified_utc);
  const modified = utcOf(changedUtc && changedUtc > own ? changedUtc : own);
  const status = String(event.status);
  const categories = Array.isArray(event.categories)
    ? (event.categories as { name?: unknown }[]).map((c) => text(c.name)).filter((name) => name !== '')
    : [];
  const description = plainTextOf(typeof event.description === 'string' ? event.description : '');
  return {
    id: String(event.global_id),
    ...timesOf(event, hasZone),
    summary: text(event.title),
    description: description || undefined,
    location: locationOf(event.venue),
    organizer: organizerOf(event.organizer),
    categories: categories.map((name) => ({ name })),
    url: typeof event.url === 'string' ? icalText(event.url) : undefined,
    status: status === 'publish' || status === 'private' ? ICalEventStatus.CONFIRMED : ICalEventStatus.TENTATIVE,
    class: status === 'private' ? ICalEventClass.PRIVATE : undefined,
    stamp: modified.toJSDate(),
    lastModified: modified.toJSDate(),
    created: typeof event.date_utc === 'string' ? utcOf(event.date_utc).toJSDate() : undefined,
    sequence: Math.max(0, Math.floor((modified.toMillis() - SEQUENCE_EPOCH_MS) / 1000)),
    x: moduleProperties(event),
  };
}
