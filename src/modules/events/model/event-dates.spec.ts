import { describe, expect, it } from '@jest/globals';
import { resolveZone } from '../../../common/dates/date-input';
import { resolveEventDates } from './event-dates';

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
