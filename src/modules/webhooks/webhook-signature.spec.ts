import { describe, expect, it } from '@jest/globals';
import { createHmac } from 'node:crypto';
import { newWebhookSecret, signDelivery } from './webhook-signature';

describe('webhook signatures', () => {
  it('sign timestamp and body with HMAC-SHA256, as a receiver recomputes it', () => {
    const body = '{"id":"d1","type":"event.created"}';
    const expected = createHmac('sha256', 'whsec_test').update(`1700000000.${body}`).digest('hex');
    expect(signDelivery('whsec_test', 1700000000, body)).toBe(`v1=${expected}`);
  });

  it('change with the timestamp, the body and the secret', () => {
    const base = signDelivery('s', 1, 'b');
    expect(signDelivery('s', 2, 'b')).not.toBe(base);
    expect(signDelivery('s', 1, 'c')).not.toBe(base);
    expect(signDelivery('t', 1, 'b')).not.toBe(base);
  });

  it('make secrets of 32 random bytes, different each time', () => {
    const a = newWebhookSecret();
    expect(a).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    expect(newWebhookSecret()).not.toBe(a);
  });
});
