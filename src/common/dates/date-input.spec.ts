import { describe, expect, it } from '@jest/globals';
import { parseDateInput, resolveZone, toSqlDateTime } from './date-input';

const utc = (value: unknown, zone = 'Europe/Berlin') => {
  const dt = parseDateInput(value, zone);
  return dt ? toSqlDateTime(dt.toUTC()) : null;
};

describe('parseDateInput', () => {
  it.each([
    ['2025-07-01 20:00:00', '2025-07-01 18:00:00'],
    ['2025-07-01 20:00', '2025-07-01 18:00:00'],
    ['2025-07-01', '2025-06-30 22:00:00'],
    ['2025-01-15 20:00:00', '2025-01-15 19:00:00'],
    ['2025-07-01T20:00:00', '2025-07-01 18:00:00'],
    ['2025-07-01T20:00:00Z', '2025-07-01 20:00:00'],
    ['2025-07-01T20:00:00+05:00', '2025-07-01 15:00:00'],
    [1751400000, '2025-07-01 20:00:00'],
    ['1751400000', '2025-07-01 20:00:00'],
  ])('reads %p', (input, expected) => {
    expect(utc(input)).toBe(expected);
  });

  it.each([
    'tomorrow',
    '2025-13-01',
    '2025-02-30 10:00',
    '2025-1-01',
    '2025-01-01 7:00',
    '01/07/2025',
    '',
    true,
    null,
    {},
  ])('refuses %p', (input) => {
    expect(parseDateInput(input, 'UTC')).toBeNull();
  });

  it.each([
    '99999999999999',
    99999999999999,
    '-99999999999',
    '0999-12-31 23:59:59',
    '10000-01-01',
    '9999-12-31T23:00:00-05:00',
    Number.MAX_SAFE_INTEGER,
    1e300,
    '1' + '0'.repeat(40),
  ])('refuses %p, outside the years 1000–9999 (in its zone or in UTC)', (input) => {
    expect(parseDateInput(input, 'UTC')).toBeNull();
  });

  it('accepts the edges of the supported range', () => {
    expect(utc('1000-01-01 00:00:00', 'UTC')).toBe('1000-01-01 00:00:00');
    expect(utc('9999-12-31 23:59:59', 'UTC')).toBe('9999-12-31 23:59:59');
  });

  it('moves a time skipped by the spring-forward change past the gap', () => {
    expect(utc('2025-03-30 02:30:00')).toBe('2025-03-30 01:30:00');
    expect(parseDateInput('2025-03-30 02:30:00', 'Europe/Berlin')?.toFormat('HH:mm ZZZZ')).toBe('03:30 GMT+2');
  });

  it('reads a time that exists twice at the fall-back change as the first one', () => {
    expect(utc('2025-10-26 02:30:00')).toBe('2025-10-26 00:30:00');
  });
});

describe('resolveZone', () => {
  it.each([
    ['Europe/Berlin', 'Europe/Berlin'],
    ['UTC', 'UTC'],
    ['UTC+2', 'UTC+2'],
    ['UTC-5:30', 'UTC-5:30'],
    ['utc+10', 'UTC+10'],
  ])('%s → %s', (input, name) => {
    expect(resolveZone(input)?.name).toBe(name);
  });

  it.each(['Mars/Base', 'UTC+15', 'GMT+25', ''])('refuses %p', (input) => {
    expect(resolveZone(input)).toBeNull();
  });
});
