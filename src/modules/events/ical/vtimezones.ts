import { getVtimezoneComponent } from '@touch4it/ical-timezones';

// The library reads a file per call; zones are few and their text small, so each is read once.
const known = new Map<string, string | null>();

/** The VTIMEZONE component of an IANA zone, CRLF-terminated lines, or null when none is known for it. */
export function vtimezoneOf(zone: string): string | null {
  if (!known.has(zone)) {
    const component = zone === 'UTC' ? null : getVtimezoneComponent(zone);
    known.set(zone, component ? `${component.replace(/\r?\n/g, '\r\n').trimEnd()}\r\n` : null);
  }
  return known.get(zone) ?? null;
}

export const hasVtimezone = (zone: string): boolean => vtimezoneOf(zone) !== null;
