import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedDelivery {
  headers: IncomingHttpHeaders;
  /** The status the receiver answered (null while held). */
  answered: number | null;
  body: string;
  json: { id: string; type: string; data: { resource: string; id: number; action: string; deleted: boolean } };
}

/**
 * A webhook receiver on 127.0.0.1: answers each request with the next status of `answers` (then 200),
 * or holds it open while `hold` says so; records everything it was sent.
 */
export class WebhookReceiver {
  readonly received: ReceivedDelivery[] = [];
  answers: number[] = [];
  hold = false;
  private server: Server | null = null;
  private waiters: { count: number; resolve: () => void }[] = [];

  async start(): Promise<string> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        const delivery: ReceivedDelivery = {
          headers: req.headers,
          answered: null,
          body,
          json: JSON.parse(body) as ReceivedDelivery['json'],
        };
        this.received.push(delivery);
        this.waiters = this.waiters.filter((w) => (this.received.length >= w.count ? (w.resolve(), false) : true));
        if (this.hold) return;
        res.statusCode = this.answers.shift() ?? 200;
        delivery.answered = res.statusCode;
        res.end('ok');
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hook`;
  }

  /** Resolves once `count` requests have arrived in all. */
  receivedCount(count: number): Promise<void> {
    if (this.received.length >= count) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push({ count, resolve }));
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}
