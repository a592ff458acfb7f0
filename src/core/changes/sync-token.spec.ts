import { describe, expect, it } from '@jest/globals';
import { decodeSyncToken, encodeSyncToken } from './sync-token';

describe('sync tokens', () => {
  it('round-trip a position', () => {
    expect(decodeSyncToken(encodeSyncToken({ seq: 912, position: 3 }))).toEqual({ seq: 912, position: 3 });
    expect(decodeSyncToken(encodeSyncToken({ seq: 0, position: -1 }))).toEqual({ seq: 0, position: -1 });
  });

  it('are opaque: no plain numbers in them', () => {
    expect(encodeSyncToken({ seq: 912, position: 3 })).not.toContain('912');
  });

  it.each([
    ['empty', ''],
    ['not base64url', 'a+b/c='],
    ['base64 of something else', Buffer.from('hello').toString('base64url')],
    ['a negative sequence', Buffer.from('-5.1').toString('base64url')],
    ['too long', 'A'.repeat(41)],
    ['a huge number', Buffer.from(`${'9'.repeat(20)}.1`).toString('base64url')],
  ])('refuse %s', (_label, token) => {
    expect(decodeSyncToken(token)).toBeNull();
  });
});
