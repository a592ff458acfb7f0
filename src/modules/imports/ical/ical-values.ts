import ICAL from 'ical.js';
import { resolveZone } from '../../../common/dates/date-input';

/** A VEVENT's values as the events API takes them: wall times, days, HTML. */

const two = (n: number) => String(n).padStart(2, '0');
export const wallOf = (t: ICAL.Time): string =>
  `${t.year}-${two(t.month)}-${two(t.day)} ${two(t.hour)}:${two(t.minute)}:${two(t.second)}`;
export const dayOf = (t: ICAL.Time): string => `${t.year}-${two(t.month)}-${two(t.day)}`;

/** Plain text (DESCRIPTION) as the HTML the events API keeps: escaped, with its line breaks. */
export function htmlOf(text: string): string {
  const escaped = text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  return escaped
    .split(/\n{2,}/)
    .map((paragraph) => `<p>${paragraph.split('\n').join('<br>')}</p>`)
    .join('');
}

/**
 * Where a time is: an IANA zone named by TZID (kept, with the wall time as written), UTC (`Z`), floating (the
 * site's zone: no `timezone` sent), or a zone only the feed's VTIMEZONE describes (its instant, in UTC).
 */
export function placed(time: ICAL.Time, tzid: string | null): { wall: string; zone?: string } {
  if (time.zone === ICAL.Timezone.utcTimezone) return { wall: wallOf(time), zone: 'UTC' };
  if (tzid !== null && resolveZone(tzid)) return { wall: wallOf(time), zone: tzid };
  if (tzid !== null) return { wall: wallOf(time.convertToZone(ICAL.Timezone.utcTimezone)), zone: 'UTC' };
  return { wall: wallOf(time) };
}
