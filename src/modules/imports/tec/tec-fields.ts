import { createHash } from 'node:crypto';
import { decodeHTML } from 'entities';
import type { CreateEventDto } from '../../events';
import { isRecord } from './tec-site';

/** The flags TEC sends as `null` on a protected event it lists blanked. */
const BLANKED_FLAGS = ['show_map', 'show_map_link', 'hide_from_listings', 'sticky', 'featured'] as const;

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
 * Where a write field's value comes from in a TEC event:
 * - `member`: the member of the same name, as it is;
 * - `read`: a rule over the whole event (a plain-text title, the cost from its details);
 * - `terms`/`links`: the source's ids, which the import maps to its own (its taxonomies and links);
 * - `none`: TEC has no such value for this service, and why.
 * `blankable`: TEC blanks it on a protected event it lists, so a blanked event leaves it out.
 */
export type TecFieldSource =
  | { readonly from: 'member'; readonly blankable?: true }
  | { readonly from: 'read'; readonly read: (event: Record<string, unknown>) => unknown; readonly blankable?: true }
  | { readonly from: 'terms' | 'links' }
  | { readonly from: 'none'; readonly why: string };

const member = { from: 'member' } as const;
const blankableMember = { from: 'member', blankable: true } as const;
/** A flag TEC blanks to `null` on a protected event: true only when it says so. */
const flag = (name: string): TecFieldSource => ({ from: 'read', read: (e) => e[name] === true, blankable: true });

/**
 * Every write field of `POST /events`, and where a TEC event holds it: a mapped type over the DTO, so a field
 * added to it fails `tsc` here until the import says how it carries it. The order is the order the fields are
 * hashed in (an import's change check): new fields go last.
 */
export const TEC_EVENT_FIELDS: { readonly [K in keyof Required<CreateEventDto>]: TecFieldSource } = {
  title: { from: 'read', read: (e) => plainText(e.title) },
  slug: member,
  status: member,
  date_utc: { from: 'read', read: (e) => publicationDateOf(e).date_utc },
  timezone: member,
  start_date: member,
  end_date: member,
  description: blankableMember,
  excerpt: blankableMember,
  all_day: { from: 'read', read: (e) => e.all_day === true, blankable: true },
  cost: { from: 'read', read: (e) => costOf(e.cost_details, e.cost), blankable: true },
  // TEC shows the event's own page as its website when none is set: that is no website of the event's.
  website: {
    from: 'read',
    read: (e) => (typeof e.website === 'string' && e.website !== e.url ? e.website : ''),
    blankable: true,
  },
  show_map: flag('show_map'),
  show_map_link: flag('show_map_link'),
  hide_from_listings: flag('hide_from_listings'),
  sticky: flag('sticky'),
  featured: flag('featured'),
  image: { from: 'read', read: (e) => imageUrlOf(e.image), blankable: true },
  categories: { from: 'terms' },
  tags: { from: 'terms' },
  date: { from: 'none', why: "WordPress's local publication date: date_utc carries the same instant" },
  author: { from: 'none', why: 'a user of the other site: the import writes as its own author' },
  password: {
    from: 'none',
    why: "TEC never shows a password: WordPress's list of event posts shows it to an editor (tec-event-source.ts)",
  },
  post_parent: { from: 'none', why: "TEC's REST API shows no parent event" },
  recurrence: { from: 'none', why: "TEC's REST API lists occurrences as single events, without their rule" },
};

/** The write fields TEC's event holds itself (not its terms or links), with how each is read. */
const SCALAR_FIELDS = Object.entries(TEC_EVENT_FIELDS as Record<string, TecFieldSource>).flatMap(([name, source]) =>
  source.from === 'member' || source.from === 'read' ? [{ name, source }] : [],
);

/**
 * The write fields of a TEC event. A password-protected event that is listed with its content and flags
 * blanked (`null` flags, no links) has those left out, not written as empty. `moduleFields`: write fields
 * modules declare here, taken from the source's member of the same name when it shows one (a source that
 * loads the same module). `password`: the event's password there, when the credentials could read it.
 */
export function eventOf(
  event: Record<string, unknown>,
  linkFields: string[],
  moduleFields: string[] = [],
  password: string | null = null,
): TecEvent {
  // TEC blanks a protected event for everyone; this service shows it in full to its editors, and says so.
  const blanked = BLANKED_FLAGS.some((name) => event[name] === null) || event.all_day === null;
  const protectedInSource = blanked || event.password_protected === true || password !== null;
  // Read with its password (`password`), it is whole: protected here with the same password.
  const fields: Record<string, unknown> = password === null ? {} : { password };
  for (const { name, source } of SCALAR_FIELDS) {
    if (blanked && source.blankable) continue;
    const value = source.from === 'member' ? event[name] : source.read(event);
    if (value !== undefined) fields[name] = value;
  }
  if (!blanked) {
    for (const name of moduleFields) if (event[name] !== undefined && event[name] !== null) fields[name] = event[name];
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
