import { ICalEventClass, ICalEventStatus, type ICalEventData } from 'ical-generator';
import type { TermObject } from '../../../core/terms/term.mapper';
import type { VeventContext } from '../fields/vevent-use';
import { text } from './ical-text';
import { utcDateOf } from './vevent-times';

/** SEQUENCE counts seconds of modification time from here: it grows with every edit and fits 32 bits until 2088. */
const SEQUENCE_EPOCH_MS = Date.UTC(2020, 0, 1);

/** STATUS (and CLASS) of a VEVENT from the post's status. */
export function statusProperties(status: string): Partial<ICalEventData> {
  return {
    status: status === 'publish' || status === 'private' ? ICalEventStatus.CONFIRMED : ICalEventStatus.TENTATIVE,
    class: status === 'private' ? ICalEventClass.PRIVATE : undefined,
  };
}

/**
 * DTSTAMP, LAST-MODIFIED and SEQUENCE. What a subscriber sees changes when a venue, organizer or category shown
 * in the event changes too (`change_heads`): SEQUENCE and LAST-MODIFIED must move then, or clients keep the old
 * LOCATION.
 */
export function modifiedProperties(own: string, { changedUtc }: VeventContext): Partial<ICalEventData> {
  const modified = utcDateOf(changedUtc && changedUtc > own ? changedUtc : own);
  return {
    stamp: modified,
    lastModified: new Date(modified),
    sequence: Math.max(0, Math.floor((modified.getTime() - SEQUENCE_EPOCH_MS) / 1000)),
  };
}

/** CATEGORIES: the names of the event's categories. */
export function categoriesProperty(terms: TermObject[]): Partial<ICalEventData> {
  return {
    categories: (Array.isArray(terms) ? terms : [])
      .map((term) => text(term.name))
      .filter((name) => name !== '')
      .map((name) => ({ name })),
  };
}
