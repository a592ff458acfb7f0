import { describe, expect, it } from '@jest/globals';
import { mayAnswerCalendar } from './feed-compression';

describe('mayAnswerCalendar', () => {
  it('takes the feeds’ routes and lists asked for iCalendar', () => {
    expect(mayAnswerCalendar({ path: '/cal/events/v1/events.ics', headers: {} })).toBe(true);
    expect(mayAnswerCalendar({ path: '/de/cal/events/v1/events/12.ics', headers: {} })).toBe(true);
    expect(mayAnswerCalendar({ path: '/cal/events/v1/events', headers: { accept: 'text/calendar' } })).toBe(true);
    expect(
      mayAnswerCalendar({
        path: '/cal/events/v1/events',
        headers: { accept: 'application/json, text/calendar;q=0.5' },
      }),
    ).toBe(true);
  });

  it('leaves JSON reads alone', () => {
    expect(mayAnswerCalendar({ path: '/cal/events/v1/events', headers: {} })).toBe(false);
    expect(mayAnswerCalendar({ path: '/cal/events/v1/events/12', headers: { accept: 'application/json' } })).toBe(
      false,
    );
    expect(mayAnswerCalendar({ path: '/cal/events/v1/events/ics', headers: { accept: '*/*' } })).toBe(false);
  });
});
