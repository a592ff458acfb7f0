import { createHash } from 'node:crypto';
import { decodeHTML } from 'entities';
import { isRecord } from './tec-site';

/** Members a TEC object sends as HTML; every other string is plain text that WordPress sends escaped. */
const HTML_MEMBERS = new Set(['description', 'excerpt']);
/** Members that say where or when the record is there, not what it is: never written here. */
const SITE_MEMBERS = new Set([
  'id',
  'global_id',
  'global_id_lineage',
  'author',
  'date',
  'modified',
  'modified_utc',
  'url',
  'rest_url',
  'json_ld',
  'custom_fields',
]);
const EVENT_FLAGS = ['show_map', 'show_map_link', 'hide_from_listings', 'sticky', 'featured'] as const;

/** What a source record says, in a form that changes only when the record does: an import's change check. */
export function hashOf(fields: unknown): string {
  return createHash('sha256').update(JSON.stringify(fields)).digest('hex');
}

/** A TEC plain-text member (`Arts &amp; Culture`, `Rock &#8217;n&#8217; Roll`) as the text it stands for. */
export function plainText(value: unknown): string {
  return typeof value === 'string' ? decodeHTML(value) : '';
}

/** The source ids of a member that holds one linked object, a list of them, or `[]`. */
export function idsOf(member: unknown): number[] {
  const items = Array.isArray(member) ? member : isRecord(member) ? [member] : [];
  return items.flatMap((item) => (isRecord(item) && Number.isInteger(item.id) ? [item.id as number] : []));
}

/** A term's write fields; its parent as the source's id. */
export function termOf(term: Record<string, unknown>): {
  fields: { name: string; slug: string; description: string };
  parent: number;
} {
  return {
    fields: {
      name: plainText(term.name),
      slug: typeof term.slug === 'string' ? term.slug : '',
      description: typeof term.description === 'string' ? term.description : '',
    },
    parent: Number.isInteger(term.parent) ? (term.parent as number) : 0,
  };
}

/**
 * A linked record's write fields (a venue, an organizer, another module's type): its members as they are
 * named here, plain text decoded, the image as its URL; what the create DTO does not declare is dropped by
 * its validation.
 */
export function linkedRecordOf(record: Record<string, unknown>): Record<string, unknown> {
  const fields: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(record)) {
    if (SITE_MEMBERS.has(name) || name === 'date_utc' || value === null) continue;
    if (name === 'image') fields.image = imageUrlOf(value);
    else fields[name] = typeof value === 'string' && !HTML_MEMBERS.has(name) ? plainText(value) : value;
  }
  if (fields.image === undefined) delete fields.image;
  return { ...fields, ...publicationDateOf(record) };
}

/** WordPress sends `0000-00-00 00:00:00` for a draft never published: no date, so the write picks one. */
function publicationDateOf(record: Record<string, unknown>): { date_utc?: string } {
  const date = record.date_utc;
  return typeof date === 'string' && !date.startsWith('0000-') ? { date_utc: date } : {};
}

function imageUrlOf(image: unknown): string | undefined {
  return isRecord(image) && typeof image.url === 'string' ? image.url : undefined;
}

/** An event of a TEC list as the fields of a write here, its links as source ids. */
export interface TecEvent {
  fields: Record<string, unknown>;
  /** By write field (`venue`, `organizer`, `categories`): the linked records' or terms' ids there. */
  links: Record<string, number[]>;
  /**
   * Password-protected there: protected here too. TEC lists such an event blanked (only what it showed is
   * written); this service's alias shows it in full to an editor, with `password_protected`.
   */
  protectedInSource: boolean;
}

/**
 * The write fields of a TEC event. A password-protected event that is listed with its content and flags
 * blanked (`null` flags, no links) has those left out, not written as empty.
 */
export function eventOf(event: Record<string, unknown>, linkFields: string[]): TecEvent {
  // TEC blanks a protected event for everyone; this service shows it in full to its editors, and says so.
  const blanked = EVENT_FLAGS.some((flag) => event[flag] === null) || event.all_day === null;
  const protectedInSource = blanked || event.password_protected === true;
  const fields: Record<string, unknown> = {
    title: plainText(event.title),
    slug: event.slug,
    status: event.status,
    ...publicationDateOf(event),
    timezone: event.timezone,
    start_date: event.start_date,
    end_date: event.end_date,
  };
  if (!blanked) {
    Object.assign(fields, {
      description: event.description,
      excerpt: event.excerpt,
      all_day: event.all_day === true,
      cost: costOf(event.cost_details, event.cost),
      website: typeof event.website === 'string' ? event.website : '',
    });
    for (const flag of EVENT_FLAGS) fields[flag] = event[flag] === true;
    const image = imageUrlOf(event.image);
    if (image !== undefined) fields.image = image;
  }
  // Only the links the source shows: a type a module adds here, which the source does not know, keeps its
  // links here; a blanked event shows none of its links.
  const shown = blanked ? [] : linkFields.filter((field) => field in event);
  const links = Object.fromEntries(shown.map((field) => [field, idsOf(event[field])]));
  return { fields, links, protectedInSource };
}

/**
 * The cost as written here, from TEC's `cost_details`: its `cost` is a display string that keeps only part of
 * what was entered ("10, 20, 30" shows as "$30"), its values keep all of it ("10.", "20.", "30"; "free").
 */
export function costOf(details: unknown, display: unknown): string {
  if (!isRecord(details) || !Array.isArray(details.values)) return typeof display === 'string' ? display : '';
  const symbol = typeof details.currency_symbol === 'string' ? details.currency_symbol : '';
  const postfix = details.currency_position === 'postfix';
  const values = details.values.flatMap((value) => {
    const text = String(value).trim().replace(/\.$/, '');
    if (text === '') return [];
    if (!/^\d+(?:[.,]\d+)?$/.test(text)) return [text.charAt(0).toUpperCase() + text.slice(1)];
    return [symbol === '' ? text : postfix ? `${text}${symbol}` : `${symbol}${text}`];
  });
  // A cost without a number ("Donation") has no values here; its text is the cost.
  if (values.length === 0) return typeof display === 'string' ? display : '';
  return values.join(', ');
}
