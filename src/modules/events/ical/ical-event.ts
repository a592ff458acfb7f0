import type { ICalEventData } from 'ical-generator';
import { moduleIcalMembers } from '../fields/event-field-declarations';
import { icalText } from './ical-text';
import type { VeventSource } from './vevent-times';
import { linkIcalWriters } from '../extension-points/links/event-link-fields';
import { VEVENT_MEMBER_LIST } from './vevent-members';

/** The properties the links declare (`EventLinkDefinition.ical`): a venue's LOCATION, the ORGANIZER. */
function linkProperties(event: VeventSource): Partial<ICalEventData> {
  const data: Partial<ICalEventData> = {};
  for (const { field, ical } of linkIcalWriters()) {
    const value = event[field];
    const records = (Array.isArray(value) ? value : value && typeof value === 'object' ? [value] : []) as Record<
      string,
      unknown
    >[];
    if (ical && records.length > 0) Object.assign(data, ical.write(records));
  }
  return data;
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
 * categories either. Each member the catalogue writes (`BUILT_IN_FIELDS[m].vevent`) gives its properties; the links' (as
 * each declares, `EventLinkDefinition.ical`) and the modules' (`X-` properties) follow.
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
  const links = linkProperties(event);
  // A link's own `X-` properties (as `{ key, value }`), then the modules' fields'.
  const linkX = Array.isArray(links.x) ? (links.x as { key: string; value: string }[]) : [];
  const ownX = Array.isArray(data.x) ? (data.x as { key: string; value: string }[]) : [];
  return { ...data, ...links, start: data.start!, x: [...ownX, ...linkX, ...moduleProperties(event)] };
}
