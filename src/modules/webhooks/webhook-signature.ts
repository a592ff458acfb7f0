import { createHmac, randomBytes } from 'node:crypto';

/** Headers of every delivery. */
export const WEBHOOK_HEADERS = {
  id: 'X-Cal-Webhook-Id',
  timestamp: 'X-Cal-Webhook-Timestamp',
  signature: 'X-Cal-Webhook-Signature',
  type: 'X-Cal-Webhook-Type',
} as const;

/**
 * `v1=` and the hex HMAC-SHA256 of `<timestamp>.<body>` under the endpoint's secret: the receiver
 * recomputes it over the raw body and the timestamp header, compares in constant time, and refuses
 * timestamps too far from its clock (replays). docs/sync-and-webhooks.md shows it in a few lines.
 */
export function signDelivery(secret: string, timestamp: number, body: string): string {
  return `v1=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`;
}

/** A new endpoint secret: 32 random bytes. */
export function newWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString('base64url')}`;
}
