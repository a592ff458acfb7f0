import { describe, expect, it } from '@jest/globals';
import { utcToZone } from './zoned-time';

describe('zoned time', () => {
  it('converts UTC to a zone across daylight saving time', () => {
    expect(utcToZone('2025-01-15 12:00:00', 'Europe/Berlin')).toBe('2025-01-15 13:00:00');
    expect(utcToZone('2025-07-15 12:00:00', 'Europe/Berlin')).toBe('2025-07-15 14:00:00');
    expect(utcToZone('2025-03-09 16:00:00', 'America/New_York')).toBe('2025-03-09 12:00:00');
  });
});
