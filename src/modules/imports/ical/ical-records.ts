import ICAL from 'ical.js';
import { createHash } from 'node:crypto';
import { icalDateProblem } from '../../../common/dates/ical-date-value';
import { ICAL_FIELD_READERS } from './ical-fields';
import { placed } from './ical-values';

/** Longest source id kept as it is; a longer UID is kept as its hash (the column holds 191 characters). */
const MAX_SOURCE_ID = 191;

/** An event write as the events API takes it, from one VEVENT. */
export type EventFields = Record<string, unknown> & { title: string; start_date: string; end_date: string };

/** One event of a feed: a single event or a series, with the exceptions of a series. */
export interface IcalRecord {
  /** The UID (hashed when longer than the column). */
  sourceId: string;
  /** What the feed says about it, exceptions included: unchanged records are skipped on the next import. */
  hash: string;
  fields: EventFields;
  cancelled: boolean;
  exceptions: IcalException[];
}

/** A VEVENT with a RECURRENCE-ID: one occurrence of a series, changed or cancelled. */
export interface IcalException {
  sourceId: string;
  /** The occurrence it replaces: its rule time as a wall time in the series' zone (`YYYY-MM-DD HH:MM:SS`). */
  occurrenceLocal: string;
  fields: EventFields;
  cancelled: boolean;
}

export type IcalParse = { ok: true; records: IcalRecord[]; problems: string[] } | { ok: false; problem: string };

const sourceIdOf = (uid: string): string =>
  uid.length <= MAX_SOURCE_ID ? uid : `sha256:${createHash('sha256').update(uid).digest('hex')}`;

/** The event fields of one VEVENT, and whether it is cancelled. */
function fieldsOf(
  event: ICAL.Event,
  extraCategories: string[],
  properties: readonly (readonly [string, string])[],
): { fields: EventFields; cancelled: boolean } {
  const component = event.component;
  const context = { extraCategories };
  const fields: Partial<EventFields> & Record<string, unknown> = {};
  for (const read of ICAL_FIELD_READERS) Object.assign(fields, read(event, context));
  // The links' properties: LOCATION names a venue, ORGANIZER an organizer (with its address).
  const location = component.getFirstPropertyValue('location');
  if (typeof location === 'string' && location.trim() !== '') {
    fields.venue = { venue: location.split('\n')[0].split(',')[0].trim().slice(0, 200) };
  }
  const organizer = component.getFirstProperty('organizer');
  if (organizer) {
    const address = String(organizer.getFirstValue() ?? '').replace(/^mailto:/i, '');
    const name = organizer.getParameter('cn');
    const label = (typeof name === 'string' && name.trim()) || address;
    if (label)
      fields.organizer = [{ organizer: label.slice(0, 200), ...(address.includes('@') ? { email: address } : {}) }];
  }
  // Modules' properties (`X-` names) back into their write fields, as text their rules parse.
  for (const [property, field] of properties) {
    const value = component.getFirstPropertyValue(property.toLowerCase());
    if (typeof value === 'string' && value.trim() !== '') fields[field] = value.trim();
  }
  const status = component.getFirstPropertyValue('status');
  return {
    fields: fields as EventFields,
    cancelled: typeof status === 'string' && status.toUpperCase() === 'CANCELLED',
  };
}

/**
 * The series lines of a VEVENT, as the events API's `recurrence` takes them: as their author wrote them when
 * the feed says so (`X-CAL-RECURRENCE`, from another instance of this service: COUNT and an open end kept),
 * else the RRULE, RDATE and EXDATE the feed expands by.
 */
function recurrenceOf(component: ICAL.Component): string[] {
  const authored = component
    .getAllProperties('x-cal-recurrence')
    .map((property) => property.getFirstValue())
    .filter((value): value is string => typeof value === 'string' && value.trim() !== '');
  if (authored.length > 0) return authored;
  return ['rrule', 'rdate', 'exdate'].flatMap((name) =>
    component.getAllProperties(name).map((property) => property.toICALString()),
  );
}

/**
 * The problem with a VEVENT's DTSTART, DTEND or RECURRENCE-ID as written: ical.js rolls month 13 or day 40
 * into a later date without a word, and would import the event there.
 */
function datesProblem(component: ICAL.Component): string | undefined {
  for (const name of ['dtstart', 'dtend', 'recurrence-id']) {
    const property = component.getFirstProperty(name);
    const raw: unknown = property?.jCal[3];
    if (property === null || typeof raw !== 'string') continue;
    const problem = icalDateProblem(raw.replace(/[-:]/g, ''));
    if (problem) return `${name.toUpperCase()}: ${problem}`;
  }
  return undefined;
}

/**
 * The events of an iCalendar text (issue 37): every VEVENT as the fields of an event write, a series with
 * its `recurrence` lines and its exceptions (VEVENTs with RECURRENCE-ID). Malformed text is refused whole;
 * a VEVENT that cannot be read (no DTSTART) is left out with a problem that names it.
 */
export function readIcal(
  text: string,
  options: {
    categories?: string[];
    /** `[X-PROPERTY, write field]` of modules' fields, read back as the fields' text. */
    properties?: readonly (readonly [string, string])[];
  } = {},
): IcalParse {
  let calendar: ICAL.Component;
  try {
    const parsed: unknown = ICAL.parse(text);
    calendar = new ICAL.Component(parsed as unknown[]);
  } catch (error) {
    return { ok: false, problem: `not iCalendar: ${error instanceof Error ? error.message : String(error)}` };
  }
  if (calendar.name !== 'vcalendar') return { ok: false, problem: 'not iCalendar: no VCALENDAR' };
  // A TZID the feed's own VTIMEZONE describes is found through the calendar (ical.js looks there first): a
  // feed's zones are never registered for the whole process, where one feed's could shadow another's.
  const problems: string[] = [];
  const masters = new Map<string, { component: ICAL.Component; exceptions: ICAL.Component[] }>();
  const exceptions: ICAL.Component[] = [];
  for (const [index, component] of calendar.getAllSubcomponents('vevent').entries()) {
    const uid = component.getFirstPropertyValue('uid');
    const named = `VEVENT ${index + 1}${typeof uid === 'string' ? ` (${uid})` : ''}`;
    if (!component.hasProperty('dtstart')) {
      problems.push(`${named}: no DTSTART`);
      continue;
    }
    const badDate = datesProblem(component);
    if (badDate) {
      problems.push(`${named}: ${badDate}`);
      continue;
    }
    if (component.hasProperty('recurrence-id')) exceptions.push(component);
    else {
      // A VEVENT without UID is named by its start and summary, so a second import finds it again.
      const key =
        typeof uid === 'string' && uid.trim() !== ''
          ? uid.trim()
          : `no-uid:${String(component.getFirstPropertyValue('dtstart'))}:${String(component.getFirstPropertyValue('summary'))}`;
      masters.set(key, { component, exceptions: [] });
    }
  }
  for (const component of exceptions) {
    const master = masters.get(String(component.getFirstPropertyValue('uid')).trim());
    if (master) master.exceptions.push(component);
    else
      problems.push(`RECURRENCE-ID of ${String(component.getFirstPropertyValue('uid'))}: no such series in the feed`);
  }
  const extra = options.categories ?? [];
  const properties = options.properties ?? [];
  const records: IcalRecord[] = [];
  // Each VEVENT is read under a calendar of the feed's own properties and VTIMEZONEs only. Under the whole
  // feed, ical.js looks through all its subcomponents for every TZID it has no VTIMEZONE for (each time: it
  // caches only what it finds), and for a new Event's exceptions: for every VEVENT, through every VEVENT, so
  // reading 10,000 events took 15 s (5,000: 3 s).
  const zonesOnly = new ICAL.Component([
    'vcalendar',
    (calendar.jCal as unknown[])[1],
    calendar.getAllSubcomponents('vtimezone').map((zone): unknown => zone.jCal),
  ]);
  const alone = (component: ICAL.Component): ICAL.Component => new ICAL.Component(component.jCal, zonesOnly);
  for (const [uid, { component, exceptions: own }] of masters) {
    try {
      const { fields, cancelled } = fieldsOf(new ICAL.Event(alone(component)), extra, properties);
      const lines = recurrenceOf(component);
      if (lines.length > 0) fields.recurrence = lines;
      const hash = createHash('sha256').update(JSON.stringify(extra)).update(component.toString());
      for (const e of own) hash.update(e.toString());
      records.push({
        sourceId: sourceIdOf(uid),
        hash: hash.digest('hex'),
        fields,
        cancelled,
        exceptions: own.map((e) => {
          const event = new ICAL.Event(alone(e));
          const recurrenceId = event.component.getFirstPropertyValue('recurrence-id');
          const time = recurrenceId instanceof ICAL.Time ? recurrenceId : null;
          const own = fieldsOf(event, extra, properties);
          const tzid = component.getFirstProperty('dtstart')?.getParameter('tzid');
          return {
            sourceId: sourceIdOf(`${uid}#${time ? time.toString() : ''}`),
            occurrenceLocal: time ? placed(time, typeof tzid === 'string' ? tzid : null).wall : '',
            fields: own.fields,
            cancelled: own.cancelled,
          };
        }),
      });
    } catch (error) {
      problems.push(`${uid}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  return { ok: true, records, problems };
}
