import { describe, expect, it } from '@jest/globals';
import { DateTime } from 'luxon';
import { resolveZone } from '../../../common/dates/date-input';
import { resolveDateWindow } from './event-window';

const berlin = resolveZone('Europe/Berlin')!;
const NOW = DateTime.fromISO('2026-06-15T10:00:00Z');

describe('resolveDateWindow', () => {
  it('defaults to yesterday’s start until the end of the day 24 months ahead, in the site zone', () => {
    const result = resolveDateWindow({}, berlin, NOW);
    expect(result).toEqual({
      ok: true,
      window: expect.objectContaining({
        startFrom: '2026-06-13 22:00:00',
        endUntil: '2028-06-15 21:59:59',
        effective: { start_date: '2026-06-14 00:00:00', end_date: '2028-06-15 23:59:59' },
      }),
    });
  });

  it('snaps start_date to the start and end_date to the end of their days unless strict', () => {
    const loose = resolveDateWindow({ start_date: '2026-07-01 18:00:00', end_date: '2026-07-02 08:00' }, berlin, NOW);
    expect(loose).toMatchObject({
      ok: true,
      window: { startFrom: '2026-06-30 22:00:00', endUntil: '2026-07-02 21:59:59' },
    });
    const strict = resolveDateWindow(
      { start_date: '2026-07-01 18:00:00', end_date: '2026-07-02 08:00', strict_dates: true },
      berlin,
      NOW,
    );
    expect(strict).toMatchObject({
      ok: true,
      window: { startFrom: '2026-07-01 16:00:00', endUntil: '2026-07-02 06:00:00' },
    });
  });

  it('keeps the other bound’s default when only one is given (behaviour.md §7)', () => {
    const onlyStart = resolveDateWindow({ start_date: '2026-07-01' }, berlin, NOW);
    expect(onlyStart).toMatchObject({
      ok: true,
      window: { startFrom: '2026-06-30 22:00:00', endUntil: '2028-06-15 21:59:59' },
    });
    const onlyEnd = resolveDateWindow({ end_date: '2026-07-01' }, berlin, NOW);
    expect(onlyEnd).toMatchObject({
      ok: true,
      window: { startFrom: '2026-06-13 22:00:00', endUntil: '2026-07-01 21:59:59' },
    });
  });

  it('moves the exclusive bounds to the end of their day and drops the default window', () => {
    const result = resolveDateWindow({ starts_after: '2026-07-01 09:00', ends_before: '2026-07-10' }, berlin, NOW);
    expect(result).toEqual({
      ok: true,
      window: {
        startFrom: undefined,
        endUntil: undefined,
        startsBefore: undefined,
        startsAfter: '2026-07-01 21:59:59',
        endsBefore: '2026-07-10 21:59:59',
        endsAfter: undefined,
        effective: { start_date: undefined, end_date: undefined },
      },
    });
  });

  it('keeps an explicit start_date beside the exclusive bounds, and exact times when strict', () => {
    const result = resolveDateWindow(
      { start_date: '2026-07-01', starts_before: '2026-07-05 12:00', strict_dates: true },
      berlin,
      NOW,
    );
    expect(result).toMatchObject({
      ok: true,
      window: { startFrom: '2026-06-30 22:00:00', startsBefore: '2026-07-05 10:00:00' },
    });
  });

  it('names unreadable dates', () => {
    expect(resolveDateWindow({ start_date: 'soon', ends_after: '2026-99-01' }, berlin, NOW)).toEqual({
      ok: false,
      invalid: ['start_date', 'ends_after'],
    });
  });
});
