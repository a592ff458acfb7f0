import { describe, expect, it } from '@jest/globals';
import { matchesIfMatch, parseEntityTags, unmodifiedSince, writeConditionsOf } from './write-conditions';

describe('write conditions', () => {
  it('parse If-Match lists, * and refuse what is not a list of entity tags', () => {
    expect(parseEntityTags('"a", W/"b" ,"c"')).toEqual(['"a"', 'W/"b"', '"c"']);
    expect(parseEntityTags(' * ')).toBe('*');
    expect(parseEntityTags('abc')).toBeNull();
    expect(parseEntityTags('"a" "b"')).toBeNull();
    expect(parseEntityTags('')).toBeNull();
  });

  it('are absent when the request names none', () => {
    expect(writeConditionsOf({})).toBeNull();
  });

  it('match If-Match strongly: weak tags never match, * always does, a malformed header never does', () => {
    const tag = '"12-abc"';
    expect(matchesIfMatch(writeConditionsOf({ 'if-match': `"x", ${tag}` })!, tag)).toBe(true);
    expect(matchesIfMatch(writeConditionsOf({ 'if-match': `W/${tag}` })!, tag)).toBe(false);
    expect(matchesIfMatch(writeConditionsOf({ 'if-match': '*' })!, tag)).toBe(true);
    expect(matchesIfMatch(writeConditionsOf({ 'if-match': 'garbage' })!, tag)).toBe(false);
  });

  it('compare If-Unmodified-Since with whole seconds, and ignore it beside If-Match or when it is no date', () => {
    const since = writeConditionsOf({ 'if-unmodified-since': 'Tue, 03 Mar 2026 10:00:00 GMT' })!;
    expect(unmodifiedSince(since, '2026-03-03 10:00:00')).toBe(true);
    expect(unmodifiedSince(since, '2026-03-03 10:00:01')).toBe(false);
    expect(unmodifiedSince(since, null)).toBe(true);
    expect(writeConditionsOf({ 'if-unmodified-since': 'yesterday' })).toBeNull();
    expect(writeConditionsOf({ 'if-match': '*', 'if-unmodified-since': 'Tue, 03 Mar 2026 10:00:00 GMT' })).toEqual({
      ifMatch: '*',
      ifUnmodifiedSince: null,
    });
  });
});
