/** How a CSV writes its days: TEC's importer asks the same (year first, month first, day first). */
export type DayOrder = 'ymd' | 'mdy' | 'dmy';

const pad = (n: number) => String(n).padStart(2, '0');

/** A real day, or null. */
function dayOf(year: number, month: number, day: number): string | null {
  const date = new Date(Date.UTC(year, month - 1, day));
  if (year < 1000 || date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day)
    return null;
  return `${year}-${pad(month)}-${pad(day)}`;
}

/**
 * A day as `YYYY-MM-DD`, from the forms CSVs carry: `2027-03-01` (any order), `03/01/2027` or `1.3.2027` in
 * the file's order, two-digit years as 20xx; with the time that follows it in the same cell, if any.
 */
export function parseDay(text: string, order: DayOrder): { day: string; time: string } | null {
  const trimmed = text.trim();
  const iso = /^(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})(?:[T\s]+(.+))?$/.exec(trimmed);
  if (iso) {
    const day = dayOf(Number(iso[1]), Number(iso[2]), Number(iso[3]));
    return day ? { day, time: iso[4] ?? '' } : null;
  }
  const local = /^(\d{1,2})[-/.](\d{1,2})[-/.](\d{2}|\d{4})(?:\s+(.+))?$/.exec(trimmed);
  if (!local || order === 'ymd') return null;
  const year = local[3].length === 2 ? 2000 + Number(local[3]) : Number(local[3]);
  const [month, day] = order === 'mdy' ? [local[1], local[2]] : [local[2], local[1]];
  const found = dayOf(year, Number(month), Number(day));
  return found ? { day: found, time: local[4] ?? '' } : null;
}

/** A time as `HH:MM:SS`, from `19:30`, `19:30:15`, `7:30 pm`, `7pm`; null when it is none. */
export function parseTime(text: string): string | null {
  const match = /^(\d{1,2})(?::(\d{2}))?(?::(\d{2}))?\s*([ap]\.?m\.?)?$/i.exec(text.trim());
  if (!match) return null;
  let hour = Number(match[1]);
  const minute = Number(match[2] ?? 0);
  const second = Number(match[3] ?? 0);
  const meridiem = match[4]?.toLowerCase().replace(/\./g, '');
  if (meridiem) {
    if (hour < 1 || hour > 12) return null;
    hour = (hour % 12) + (meridiem === 'pm' ? 12 : 0);
  } else if (match[2] === undefined) return null;
  if (hour > 23 || minute > 59 || second > 59) return null;
  return `${pad(hour)}:${pad(minute)}:${pad(second)}`;
}

const TRUE = new Set(['true', 'yes', 'y', '1', 'on', 'x']);
const FALSE = new Set(['false', 'no', 'n', '0', 'off']);

/** A flag as TEC's CSVs write it (`TRUE`, `FALSE`, `yes`, `1`…); undefined when empty, null when it is none. */
export function parseFlag(text: string): boolean | null | undefined {
  const value = text.trim().toLowerCase();
  if (value === '') return undefined;
  return TRUE.has(value) ? true : FALSE.has(value) ? false : null;
}

/** A list cell (`Music, Jazz`) as its names. */
export function parseNames(text: string): string[] {
  return text
    .split(',')
    .map((name) => name.trim())
    .filter((name) => name !== '');
}
