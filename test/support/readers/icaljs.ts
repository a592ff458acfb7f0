import ICAL from 'ical.js';

const utcOf = (time: ICAL.Time): string => time.toJSDate().toISOString().replace('T', ' ').slice(0, 19);

/**
 * Every instance a reader gets by expanding a feed with ical.js (an independent RFC 5545 implementation):
 * `start|end|title` for timed events (UTC), `date|title` for all-day ones.
 */
export function expandFeed(feed: string): string[] {
  const calendar = new ICAL.Component(ICAL.parse(feed));
  ICAL.TimezoneService.reset();
  for (const zone of calendar.getAllSubcomponents('vtimezone')) ICAL.TimezoneService.register(zone);
  const components = calendar.getAllSubcomponents('vevent');
  const masters = new Map<string, ICAL.Event>();
  for (const c of components)
    if (!c.hasProperty('recurrence-id')) masters.set(String(c.getFirstPropertyValue('uid')), new ICAL.Event(c));
  for (const c of components) {
    if (!c.hasProperty('recurrence-id')) continue;
    const master = masters.get(String(c.getFirstPropertyValue('uid')));
    if (!master) throw new Error('an exception without its series');
    master.relateException(new ICAL.Event(c));
  }
  const instances: string[] = [];
  const at = (t: ICAL.Time) => (t.isDate ? t.toString() : utcOf(t));
  for (const event of masters.values()) {
    if (!event.isRecurring()) {
      instances.push(`${at(event.startDate)}${event.startDate.isDate ? '' : `|${at(event.endDate)}`}|${event.summary}`);
      continue;
    }
    const iterator = event.iterator();
    for (let next = iterator.next(); next; next = iterator.next()) {
      const details = event.getOccurrenceDetails(next);
      const end = details.startDate.isDate ? '' : `|${at(details.endDate)}`;
      instances.push(`${at(details.startDate)}${end}|${details.item.summary}`);
      if (instances.length > 20_000) throw new Error('the feed expands without end');
    }
  }
  return instances.sort();
}
