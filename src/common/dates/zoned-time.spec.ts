import { describe, expect, it } from '@jest/globals';
import { DateTime } from 'luxon';
import { sqlUtcToDateTime, utcToZone } from './zoned-time';

describe('zoned time', () => {
  it('converts UTC to a zone across daylight saving time', () => {
    expect(utcToZone('2025-01-15 12:00:00', 'Europe/Berlin')).toBe('2025-01-15 13:00:00');
    expect(utcToZone('2025-07-15 12:00:00', 'Europe/Berlin')).toBe('2025-07-15 14:00:00');
    expect(utcToZone('2025-03-09 16:00:00', 'America/New_York')).toBe('2025-03-09 12:00:00');
  });

  it('reads stored UTC times as luxon does, and hands anything unusual to luxon', () => {
    const luxon = (s: string) => DateTime.fromFormat(s, 'yyyy-MM-dd HH:mm:ss', { zone: 'utc' });
    for (const s of [
      '2025-01-15 12:00:00',
      '2024-02-29 23:59:59',
      '1000-01-01 00:00:00',
      '9999-12-31 23:59:59',
      '0099-06-01 10:00:00',
      '2025-02-30 10:00:00',
      '2025-01-15 24:00:00',
      '2025-01-15T12:00:00',
      '',
    ]) {
      const ours = sqlUtcToDateTime(s);
      expect({ s, valid: ours.isValid, millis: ours.isValid ? ours.toMillis() : null }).toEqual({
        s,
        valid: luxon(s).isValid,
        millis: luxon(s).isValid ? luxon(s).toMillis() : null,
      });
      if (ours.isValid) expect(ours.zoneName).toBe('UTC');
    }
  });
});
