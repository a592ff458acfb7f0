import type { ICalEventData } from 'ical-generator';
import type { VeventSource } from '../ical/vevent-times';
import type { EventMembers } from './event-member-types';

export interface VeventContext {
  hasZone: (zone: string) => boolean;
  /** When the event or anything it shows last changed (`change_heads`), if later than the event itself. */
  changedUtc: string | null;
}

/**
 * What one member of the event object is in a VEVENT: the property it is written as (`write` gives it), a
 * property another member's writer fills (`with`), one another part of the feed writes (`elsewhere`), or none,
 * and why.
 */
export type VeventUse<V> =
  | {
      readonly property: string;
      readonly write: (value: V, event: VeventSource, context: VeventContext) => Partial<ICalEventData>;
    }
  | { readonly property: string; readonly with: keyof EventMembers }
  | { readonly property: string; readonly elsewhere: string }
  | { readonly none: string };
