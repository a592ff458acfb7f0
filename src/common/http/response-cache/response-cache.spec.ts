import { describe, expect, it } from '@jest/globals';
import type { Request } from 'express';
import type { AppConfig } from '../../../config/app-config';
import type { ContentVersion } from '../../../database/content-version';
import type { Clock } from '../../dates/clock';
import { ResponseCache } from './response-cache';

const clock = { now: () => new Date('2030-01-01T12:00:30Z') } as Clock;
const cache = new ResponseCache({ responseCacheBytes: 1024 * 1024 } as AppConfig, {} as ContentVersion, clock);

function request(url: string, fields: Partial<Request> = {}): Request {
  const q = url.indexOf('?');
  return {
    url,
    path: q < 0 ? url : url.slice(0, q),
    language: 'en',
    restBase: 'https://calendar.example.org',
    headers: { accept: 'application/json' },
    ...fields,
  } as unknown as Request;
}

describe('ResponseCache.keyOf', () => {
  it('is the same for the same parameters in any order', () => {
    expect(cache.keyOf(request('/events?a=1&b=2'))).toBe(cache.keyOf(request('/events?b=2&a=1')));
  });

  it('tells apart what an answer depends on: path, query, caller, role, language, origin, Accept', () => {
    const base = cache.keyOf(request('/events?a=1'));
    const editor = { id: 4, login: 'e', role: 'editor', capabilities: new Set() } as unknown as Request['user'];
    const variants = [
      request('/events/1?a=1'),
      request('/events?a=2'),
      request('/events?a=1', { user: editor }),
      request('/events?a=1', { user: { ...editor!, role: 'author' } }),
      request('/events?a=1', { language: 'de' }),
      request('/events?a=1', { restBase: 'https://other.example.org' }),
      request('/events?a=1', { headers: { accept: 'text/calendar' } }),
    ];
    const keys = new Set([base, ...variants.map((r) => cache.keyOf(r))]);
    expect(keys.size).toBe(variants.length + 1);
  });

  it('never keeps an answer unlocked by an event password', () => {
    expect(cache.keyOf(request('/events/5?password=open'))).toBeNull();
    expect(cache.keyOf(request('/events/5?x=1&password=open'))).toBeNull();
    expect(cache.keyOf(request('/events/5?mypassword=open'))).not.toBeNull();
  });

  it('changes with the minute, so answers that depend on "today" cannot outlive it', () => {
    const later = new ResponseCache(
      { responseCacheBytes: 1024 } as AppConfig,
      {} as ContentVersion,
      {
        now: () => new Date('2030-01-01T12:01:00Z'),
      } as Clock,
    );
    expect(later.keyOf(request('/events'))).not.toBe(cache.keyOf(request('/events')));
  });
});
