import { describe, expect, it } from '@jest/globals';
import { resolveZone } from '../../../common/dates/date-input';
import { placedEventDates, resolveEventDates, steadyEventDates } from './event-dates';

const zone = (name: string) => resolveZone(name)!;

describe('resolveEventDates', () => {
  it('reads start and end in the event zone and stores both local and UTC', () => {
    const result = resolveEventDates({
      start: '2025-07-01 20:00',
      end: '2025-07-01 23:30:00',
      zone: zone('America/New_York'),
      allDay: false,
    });
    expect(result).toEqual({
      ok: true,
      dates: {
        startLocal: '2025-07-01 20:00:00',
        endLocal: '2025-07-01 23:30:00',
        startUtc: '2025-07-02 00:00:00',
        endUtc: '2025-07-02 03:30:00',
      },
    });
  });

  it('reads an ISO date with an offset as that instant, shown in the event zone', () => {
    const result = resolveEventDates({
      start: '2025-01-10T18:00:00Z',
      end: 1736539200,
      zone: zone('Europe/Berlin'),
      allDay: false,
    });
    expect(result).toMatchObject({
      ok: true,
      dates: { startLocal: '2025-01-10 19:00:00', endUtc: '2025-01-10 20:00:00' },
    });
  });

  it('supports fixed UTC offsets', () => {
    const result = resolveEventDates({
      start: '2025-07-01 10:00',
      end: '2025-07-01 11:00',
      zone: zone('UTC+2'),
      allDay: false,
    });
    expect(result).toMatchObject({ ok: true, dates: { startUtc: '2025-07-01 08:00:00' } });
  });

  it('stretches all-day events over their days', () => {
    const result = resolveEventDates({ start: '2025-07-01 15:00', end: '2025-07-03', zone: zone('UTC'), allDay: true });
    expect(result).toMatchObject({
      ok: true,
      dates: { startLocal: '2025-07-01 00:00:00', endLocal: '2025-07-03 23:59:59' },
    });
  });

  it('refuses an end before the start', () => {
    const result = resolveEventDates({ start: '2025-07-02', end: '2025-07-01', zone: zone('UTC'), allDay: false });
    expect(result).toEqual({ ok: false, problems: { end_date: 'end_before_start' } });
  });

  it('names every unreadable date', () => {
    const result = resolveEventDates({ start: 'soon', end: undefined, zone: zone('UTC'), allDay: false });
    expect(result).toEqual({ ok: false, problems: { start_date: 'date_time', end_date: 'date_time' } });
  });

  it('falls back to the stored local times on update', () => {
    const result = resolveEventDates({
      start: undefined,
      end: '2025-07-05 12:00',
      zone: zone('Europe/Berlin'),
      allDay: false,
      storedStartLocal: '2025-07-05 10:00:00',
      storedEndLocal: '2025-07-05 11:00:00',
    });
    expect(result).toMatchObject({
      ok: true,
      dates: { startUtc: '2025-07-05 08:00:00', endUtc: '2025-07-05 10:00:00' },
    });
  });

  it('handles a start in the spring-forward gap and an end in the fall-back hour without failing', () => {
    const gap = resolveEventDates({
      start: '2025-03-30 02:30',
      end: '2025-03-30 04:00',
      zone: zone('Europe/Berlin'),
      allDay: false,
    });
    expect(gap).toMatchObject({
      ok: true,
      dates: { startLocal: '2025-03-30 03:30:00', startUtc: '2025-03-30 01:30:00' },
    });
    const twice = resolveEventDates({
      start: '2025-10-26 01:00',
      end: '2025-10-26 02:30',
      zone: zone('Europe/Berlin'),
      allDay: false,
    });
    expect(twice).toMatchObject({
      ok: true,
      dates: { endLocal: '2025-10-26 02:30:00', endUtc: '2025-10-26 00:30:00' },
    });
  });
});

describe('event dates without a DateTime', () => {
  const DAY = 86_400_000;
  const sql = (ms: number, form: 'full' | 'minutes' | 'day') => {
    const iso = new Date(ms).toISOString();
    const text = `${iso.slice(0, 10)} ${iso.slice(11, 19)}`;
    return form === 'full' ? text : form === 'minutes' ? text.slice(0, 16) : text.slice(0, 10);
  };

  it('equal the general path wherever they answer, around every change of offset of 2031', () => {
    const zones = ['Europe/Berlin', 'America/Santiago', 'Australia/Lord_Howe', 'Asia/Kolkata', 'UTC+2', 'UTC'];
    const differing: string[] = [];
    let steady = 0;
    let compared = 0;
    for (const name of zones) {
      const offsets = zone(name);
      const days = [Date.UTC(2031, 4, 17)];
      for (let day = Date.UTC(2031, 0, 1); day < Date.UTC(2032, 0, 1); day += DAY)
        if (offsets.offset(day) !== offsets.offset(day + DAY)) days.push(day - DAY, day, day + DAY);
      for (const day of days)
        for (const hours of [0, 2.5, 12, 23.75])
          for (const length of [0, 3, 50])
            for (const allDay of [false, true])
              for (const form of ['full', 'minutes', 'day'] as const) {
                const input = {
                  start: sql(day + hours * 3_600_000, form),
                  end: sql(day + (hours + length) * 3_600_000, form),
                  zone: offsets,
                  allDay,
                };
                compared++;
                const fast = steadyEventDates(input);
                if (!fast) continue;
                steady++;
                const slow = placedEventDates(input);
                if (!slow.ok || JSON.stringify(fast) !== JSON.stringify(slow.dates))
                  differing.push(`${name} ${JSON.stringify(input.start)} ${JSON.stringify([fast, slow])}`);
              }
    }
    expect(differing).toEqual([]);
    // Most of these days are next to a change, which the general path takes; the plain one the rest.
    expect(steady).toBeGreaterThan(compared / 5);
  });

  it('leave to the general path what is not a plain local time or near a change', () => {
    const berlin = zone('Europe/Berlin');
    const at = (start: unknown, end: unknown) => steadyEventDates({ start, end, zone: berlin, allDay: false });
    expect(at('2031-03-30 02:30', '2031-03-30 03:30')).toBeUndefined();
    expect(at('2031-06-10T19:00:00Z', '2031-06-10 20:00')).toBeUndefined();
    expect(at(1943982000, '2031-06-10 20:00')).toBeUndefined();
    expect(at('2031-02-30 10:00', '2031-03-01 10:00')).toBeUndefined();
    expect(at('2031-06-10 24:00', '2031-06-11 01:00')).toBeUndefined();
    expect(at('2031-06-10 20:00', '2031-06-10 19:00')).toBeUndefined();
    expect(
      resolveEventDates({ start: '2031-06-10 20:00', end: '2031-06-10 19:00', zone: berlin, allDay: false }),
    ).toEqual({ ok: false, problems: { end_date: 'end_before_start' } });
    expect(at(' 2031-06-10 19:00 ', '2031-06-10 20:00')).toEqual({
      startLocal: '2031-06-10 19:00:00',
      endLocal: '2031-06-10 20:00:00',
      startUtc: '2031-06-10 17:00:00',
      endUtc: '2031-06-10 18:00:00',
    });
  });
});
