import type { ICalEventData } from 'ical-generator';
import { icalTextOf as text } from '../events';

/**
 * ORGANIZER holds one calendar address: the first organizer with an e-mail. A double quote cannot appear in
 * a quoted parameter value (RFC 5545 §3.1), so one in the name becomes a single quote.
 */
export function organizerAddress(organizers: Record<string, unknown>[]): Partial<ICalEventData> {
  for (const organizer of organizers) {
    const email = text(organizer.email);
    if (email !== '') return { organizer: { name: text(organizer.organizer).replace(/"/g, "'") || email, email } };
  }
  return {};
}
