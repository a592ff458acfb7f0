import { Injectable } from '@nestjs/common';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { AppConfig } from '../../config/app-config';
import { guardedLookup } from '../../common/net/outbound-url-guard';

export interface SendResult {
  /** The receiver's HTTP status; null when no answer came (network error, timeout, refused address). */
  status: number | null;
  error: string | null;
}

/**
 * POSTs one delivery: no redirects followed, connections only to addresses the SSRF guard allows
 * (checked at connect time), the receiver's answer bounded by `WEBHOOKS_TIMEOUT_SECONDS`.
 */
@Injectable()
export class WebhookSender {
  constructor(private readonly config: AppConfig) {}

  send(url: string, headers: Record<string, string>, body: string): Promise<SendResult> {
    const { allowPrivate, timeoutMs } = this.config.webhooks;
    return new Promise((resolve) => {
      const target = new URL(url);
      const request = (target.protocol === 'https:' ? httpsRequest : httpRequest)(
        target,
        {
          method: 'POST',
          headers: { ...headers, 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) },
          lookup: guardedLookup(allowPrivate),
          signal: AbortSignal.timeout(timeoutMs),
        },
        (response) => {
          // The answer's body is not ours to keep; reading it frees the connection.
          response.resume();
          response.on('end', () => resolve({ status: response.statusCode ?? null, error: null }));
          response.on('error', (error) => resolve({ status: response.statusCode ?? null, error: error.message }));
        },
      );
      request.on('error', (error: Error & { code?: string }) =>
        resolve({ status: null, error: (error.code ? `${error.code}: ` : '') + error.message }),
      );
      request.end(body);
    });
  }
}
