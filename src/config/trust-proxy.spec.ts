import { describe, expect, it } from '@jest/globals';
import { describeTrustProxy, parseTrustProxy } from './trust-proxy';

describe('parseTrustProxy', () => {
  it.each([
    ['', false],
    ['false', false],
    ['0', false],
    ['true', true],
    ['1', 1],
    [' 2 ', 2],
    ['loopback', ['loopback']],
    ['10.0.0.0/8, 192.168.1.10, fd00::/8, uniquelocal', ['10.0.0.0/8', '192.168.1.10', 'fd00::/8', 'uniquelocal']],
  ])('reads %j', (raw, expected) => {
    expect(parseTrustProxy(raw)).toEqual(expected);
  });

  it.each(['33', '-1', 'nginx', '10.0.0.0/33', '300.1.1.1', ', ,', 'proxy.example.org'])('refuses %j', (raw) => {
    expect(parseTrustProxy(raw)).toBeUndefined();
  });

  it('describes each form for the start-up line', () => {
    expect([false, true, 1, 3, ['loopback', '10.0.0.0/8']].map(describeTrustProxy)).toEqual([
      'no proxy',
      'every hop',
      '1 hop',
      '3 hops',
      'loopback, 10.0.0.0/8',
    ]);
  });
});
