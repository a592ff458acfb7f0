import { describe, expect, it } from '@jest/globals';
import { matchingRule, parseIgnoreRule, wildcardMatch, type IgnoreRule } from './ignore-rules';

const rules = (...texts: string[]): IgnoreRule[] => texts.map((t) => parseIgnoreRule(t)!);

describe('ignore rules', () => {
  it('match ids exactly or with wildcards, and titles with title:', () => {
    const list = rules('event:52', 'venue:*', 'title:*webinar*', '*@holidays.example');
    expect(matchingRule(list, { id: 'event:52' })?.text).toBe('event:52');
    expect(matchingRule(list, { id: 'event:521' })).toBeUndefined();
    expect(matchingRule(list, { id: 'venue:7' })?.text).toBe('venue:*');
    expect(matchingRule(list, { id: 'event:9', title: 'Online WEBINAR: Rust' })?.text).toBe('title:*webinar*');
    expect(matchingRule(list, { id: 'event:9', title: 'Web in a bar' })).toBeUndefined();
    expect(matchingRule(list, { id: 'abc123@Holidays.Example' })?.text).toBe('*@holidays.example');
  });

  it('read ? as one character and * as any run, the empty one too', () => {
    expect(wildcardMatch('event:?2', 'event:52')).toBe(true);
    expect(wildcardMatch('event:?2', 'event:2')).toBe(false);
    expect(wildcardMatch('a*b*c', 'abc')).toBe(true);
    expect(wildcardMatch('a*b*c', 'axxbyyc')).toBe(true);
    expect(wildcardMatch('a*b*c', 'axxbyy')).toBe(false);
    expect(wildcardMatch('*', '')).toBe(true);
    expect(wildcardMatch('', 'x')).toBe(false);
    // No regular expression behind it: metacharacters are themselves.
    expect(wildcardMatch('(a+)+$', '(a+)+$')).toBe(true);
    expect(wildcardMatch('.*', 'anything')).toBe(false);
  });

  it('refuse an empty, over-long or control-character rule', () => {
    expect(parseIgnoreRule('  ')).toBeNull();
    expect(parseIgnoreRule('title:')).toBeNull();
    expect(parseIgnoreRule('x'.repeat(201))).toBeNull();
    expect(parseIgnoreRule('event:\u000052')).toBeNull();
  });

  it('stay a bounded scan on a hostile pattern and a long title', () => {
    const hostile = rules(`title:${'*a'.repeat(60)}b`);
    const title = 'a'.repeat(50_000);
    // At most pattern × text steps: 121 × 1000 (the title is compared by its first 1000 characters).
    expect(matchingRule(hostile, { id: 'event:1', title })).toBeUndefined();
    expect(matchingRule(rules('title:*a'), { id: 'event:1', title })?.text).toBe('title:*a');
  });
});
