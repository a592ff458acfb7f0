import { describe, expect, it } from '@jest/globals';
import { parseIdList, parseIdOrSlugList, parseInteger, parseList, parseNumber, parseWpBoolean } from './parsers';

describe('parseWpBoolean', () => {
  it.each([true, 1, 'true', '1'])('%p is true', (v) => expect(parseWpBoolean(v)).toBe(true));
  it.each([false, 0, 'false', '0'])('%p is false', (v) => expect(parseWpBoolean(v)).toBe(false));
  it.each(['yes', 'TRUE', '', 2, null])('%p is left for the validator to refuse', (v) => {
    expect(parseWpBoolean(v)).toBe(v);
  });
});

describe('parseInteger and parseNumber', () => {
  it('reads integers from digits only', () => {
    expect(parseInteger('42')).toBe(42);
    expect(parseInteger(' -3 ')).toBe(-3);
    expect(parseInteger('1e3')).toBe('1e3');
    expect(parseInteger('0x10')).toBe('0x10');
    expect(parseInteger('12abc')).toBe('12abc');
  });

  it('reads decimal numbers', () => {
    expect(parseNumber('52.52')).toBe(52.52);
    expect(parseNumber('-13.4')).toBe(-13.4);
    expect(parseNumber('north')).toBe('north');
  });
});

describe('parseList', () => {
  it('splits CSV and flattens arrays of CSV', () => {
    expect(parseList('1, 2,,3')).toEqual(['1', '2', '3']);
    expect(parseList(['1,2', '3'])).toEqual(['1', '2', '3']);
    expect(parseList(7)).toEqual([7]);
  });

  it('leaves a non-list as it is', () => {
    const obj = { a: 1 };
    expect(parseList(obj)).toBe(obj);
  });
});

describe('parseIdList and parseIdOrSlugList', () => {
  it('turns digit items into numbers and keeps the rest for validation', () => {
    expect(parseIdList('1,2')).toEqual([1, 2]);
    expect(parseIdList(['3', 'x'])).toEqual([3, 'x']);
    expect(parseIdOrSlugList('5,jazz')).toEqual([5, 'jazz']);
  });
});
