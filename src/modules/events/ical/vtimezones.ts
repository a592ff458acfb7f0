import { DateTime, IANAZone } from 'luxon';

const DAY_MS = 86_400_000;
const MINUTE_MS = 60_000;

/** A change of a zone's UTC offset, at `atMs` (Unix ms), in minutes east of UTC. */
interface Transition {
  atMs: number;
  from: number;
  to: number;
}

/**
 * The years a VTIMEZONE must describe: those of the events written in it. Zone rules change (Egypt brought
 * back summer time in 2023, Brazil dropped it in 2019), so a definition is generated per feed from the
 * runtime's own time zone database (ICU's IANA data, which Node updates with its releases; `process.versions.tz`)
 * for exactly the span its events need, rather than shipped once and left to age.
 */
export interface ZoneSpan {
  fromYear: number;
  toYear: number;
}

// Generated definitions are small and feeds ask for the same few zones and spans again and again.
const generated = new Map<string, string | null>();
const MAX_CACHED = 2_000;

/** Zones asked about so far: a feed asks for every event, and luxon's check builds a formatter each time. */
const describable = new Map<string, boolean>();

/** Whether a VTIMEZONE can describe this zone: any IANA zone but UTC, whose times are written as UTC. */
export function hasVtimezone(zone: string): boolean {
  const known = describable.get(zone);
  if (known !== undefined) return known;
  const answer = zone !== 'UTC' && zone !== 'Etc/UTC' && IANAZone.isValidZone(zone);
  // Bounded: only names events were written with are asked about (valid ones by the zone database).
  if (describable.size < MAX_CACHED) describable.set(zone, answer);
  return answer;
}

/**
 * The VTIMEZONE component of an IANA zone for the years of `span` (one year of margin each side), as
 * CRLF-terminated lines of at most 75 octets, or null for a zone none can describe. Every change of offset
 * in the span is written out (an RDATE each, no RRULE), so what a client computes from it is what the
 * runtime computes, whatever the rules were in any year.
 */
export function vtimezoneOf(zone: string, span: ZoneSpan): string | null {
  if (!hasVtimezone(zone)) return null;
  const key = `${zone}\u0000${span.fromYear}\u0000${span.toYear}`;
  let text = generated.get(key);
  if (text === undefined) {
    text = generate(zone, span.fromYear - 1, span.toYear + 1);
    if (generated.size >= MAX_CACHED) generated.clear();
    generated.set(key, text);
  }
  return text;
}

/** The span of years covering these UTC instants (SQL `YYYY-MM-DD HH:MM:SS` or Unix ms). */
export function spanOf(times: (string | number)[]): ZoneSpan {
  const years = times.map((t) => (typeof t === 'number' ? new Date(t).getUTCFullYear() : Number(t.slice(0, 4))));
  const valid = years.filter((y) => Number.isInteger(y));
  const now = new Date().getUTCFullYear();
  return valid.length === 0
    ? { fromYear: now, toYear: now }
    : { fromYear: Math.min(...valid), toYear: Math.max(...valid) };
}

function generate(zoneName: string, fromYear: number, toYear: number): string {
  const zone = IANAZone.create(zoneName);
  const startMs = Date.UTC(fromYear, 0, 1);
  const endMs = Date.UTC(toYear + 1, 0, 1);
  const transitions = transitionsOf(zone, startMs, endMs);
  const initial = zone.offset(startMs);
  const lines = ['BEGIN:VTIMEZONE', `TZID:${zoneName}`, `X-LIC-LOCATION:${zoneName}`];
  // The offset in force from the span's start, so every time in it falls under an observance.
  lines.push(...observance('STANDARD', initial, initial, nameAt(zone, startMs), [localStamp(startMs, initial)]));
  const groups = new Map<string, { kind: string; from: number; to: number; name: string; starts: string[] }>();
  for (const { atMs, from, to } of transitions) {
    const kind = isSummerTime(zone, atMs, to) ? 'DAYLIGHT' : 'STANDARD';
    const name = nameAt(zone, atMs);
    const groupKey = `${kind}|${from}|${to}|${name}`;
    let group = groups.get(groupKey);
    if (!group) {
      group = { kind, from, to, name, starts: [] };
      groups.set(groupKey, group);
    }
    group.starts.push(localStamp(atMs, from));
  }
  for (const group of groups.values()) {
    lines.push(...observance(group.kind, group.from, group.to, group.name, group.starts));
  }
  lines.push('END:VTIMEZONE');
  return `${lines.join('\r\n')}\r\n`;
}

/** Each change of offset in [startMs, endMs), found day by day and pinned to the minute. */
function transitionsOf(zone: IANAZone, startMs: number, endMs: number): Transition[] {
  const found: Transition[] = [];
  let at = startMs;
  let offset = zone.offset(at);
  while (at < endMs) {
    const next = at + DAY_MS;
    const nextOffset = zone.offset(next);
    if (nextOffset !== offset) {
      let lo = at;
      let hi = next;
      while (hi - lo > MINUTE_MS) {
        const mid = lo + Math.floor((hi - lo) / 2 / MINUTE_MS) * MINUTE_MS;
        if (zone.offset(mid) === offset) lo = mid;
        else hi = mid;
      }
      found.push({ atMs: hi, from: offset, to: zone.offset(hi) });
      offset = zone.offset(hi);
      // A second change within the same day is found from here.
      at = hi;
      continue;
    }
    at = next;
  }
  return found;
}

/** Summer time: an offset above the lower of the year's January and July offsets. */
function isSummerTime(zone: IANAZone, atMs: number, offset: number): boolean {
  const year = new Date(atMs).getUTCFullYear();
  return offset > Math.min(zone.offset(Date.UTC(year, 0, 1)), zone.offset(Date.UTC(year, 6, 1)));
}

/** The zone's abbreviation at that instant (CEST), or '' where the runtime knows only GMT+3. */
function nameAt(zone: IANAZone, atMs: number): string {
  const name = DateTime.fromMillis(atMs, { zone }).offsetNameShort ?? '';
  return /^[A-Z]{2,6}$/.test(name) ? name : '';
}

function observance(kind: string, from: number, to: number, name: string, starts: string[]): string[] {
  const [first, ...more] = starts;
  return [
    `BEGIN:${kind}`,
    `DTSTART:${first}`,
    `TZOFFSETFROM:${formatOffset(from)}`,
    `TZOFFSETTO:${formatOffset(to)}`,
    ...(name === '' ? [] : [`TZNAME:${name}`]),
    // The first onset (DTSTART's) repeated as an RDATE: ical.js ignores a DTSTART onset beside RDATEs.
    ...(more.length === 0 ? [] : [first, ...more].map((start) => `RDATE:${start}`)),
    `END:${kind}`,
  ];
}

/** An instant as the local date-time (`YYYYMMDDTHHMMSS`) of a clock running `offset` minutes east of UTC. */
function localStamp(atMs: number, offset: number): string {
  return new Date(atMs + offset * MINUTE_MS).toISOString().replace(/[-:]/g, '').slice(0, 15);
}

/** Minutes east of UTC as RFC 5545's UTC-OFFSET: +0200, -0330, +053328 for seconds. */
function formatOffset(minutes: number): string {
  const sign = minutes < 0 ? '-' : '+';
  const total = Math.round(Math.abs(minutes) * 60);
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${sign}${pad(h)}${pad(m)}${s === 0 ? '' : pad(s)}`;
}
