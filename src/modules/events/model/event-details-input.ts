import { resolveZone } from '../../../common/dates/date-input';
import { RequestValidationError } from '../../../common/validation/request-validation.error';
import { reason } from '../../../common/validation/validation-messages';
import { currencyOf, type Currency } from './event-cost';
import { resolveEventDates } from './event-dates';
import type { EventDetailsEntity } from './event-details.entity';

/**
 * The stored start and end of an event write (behaviour.md §6): read in the event's zone, all-day
 * snapped to whole days, a missing side taken from the stored event; 400 naming the fields otherwise.
 */
export function eventDatesOf(input: {
  start: unknown;
  end: unknown;
  zoneName: string;
  allDay: boolean;
  stored?: EventDetailsEntity;
}): Pick<EventDetailsEntity, 'startLocal' | 'endLocal' | 'startUtc' | 'endUtc'> {
  const zone = resolveZone(input.zoneName);
  if (!zone) throw RequestValidationError.of({ timezone: reason('time_zone') });
  const result = resolveEventDates({
    start: input.start,
    end: input.end,
    zone,
    allDay: input.allDay,
    storedStartLocal: input.stored?.startLocal,
    storedEndLocal: input.stored?.endLocal,
  });
  if (!result.ok) {
    throw RequestValidationError.of(
      Object.fromEntries(Object.entries(result.problems).map(([name, problem]) => [name, reason(problem)])),
    );
  }
  return result.dates;
}

/** The cost text and the currency read from it (or the site's default) onto the details row. */
export function applyCost(details: EventDetailsEntity, cost: string, defaults: Currency): void {
  const currency = currencyOf(cost, defaults);
  details.cost = cost.trim();
  details.currencySymbol = currency.symbol;
  details.currencyCode = currency.code;
  details.currencyPosition = currency.position;
}
