import { connect, createServer, type Server, type Socket } from 'node:net';

/**
 * A TCP proxy in front of a database server that can "freeze": while frozen it forwards nothing in
 * either direction (as a stopped or hung server would), without closing connections.
 */
export class FreezingProxy {
  private server: Server | null = null;
  private readonly pairs: [Socket, Socket][] = [];
  private frozen = false;
  private refusing = false;
  /** Bytes the clients sent while frozen (dropped): what an app still asked of the frozen server. */
  bytesSentWhileFrozen = 0;

  constructor(
    private readonly targetHost: string,
    private readonly targetPort: number,
  ) {}

  async start(): Promise<number> {
    this.server = createServer((client) => {
      if (this.refusing) {
        client.destroy();
        return;
      }
      const upstream = connect(this.targetPort, this.targetHost);
      this.pairs.push([client, upstream]);
      const forward = (from: Socket, to: Socket) =>
        from.on('data', (chunk) => {
          if (!this.frozen) to.write(chunk);
        });
      forward(client, upstream);
      forward(upstream, client);
      client.on('data', (chunk: Buffer) => {
        if (this.frozen) this.bytesSentWhileFrozen += chunk.length;
      });
      const close = () => {
        client.destroy();
        upstream.destroy();
      };
      client.on('error', close).on('close', close);
      upstream.on('error', close).on('close', close);
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    const address = this.server.address();
    if (address === null || typeof address === 'string') throw new Error('proxy has no port');
    return address.port;
  }

  freeze(): void {
    this.frozen = true;
  }

  /** Ends the freeze; connections that lost bytes meanwhile are dropped, as after a real outage. */
  thaw(): void {
    this.frozen = false;
    for (const [client, upstream] of this.pairs.splice(0)) {
      client.destroy();
      upstream.destroy();
    }
  }

  /** The server is gone: open connections drop and new ones are refused, until `restore()`. */
  cut(): void {
    this.refusing = true;
    this.thaw();
  }

  restore(): void {
    this.refusing = false;
  }

  async stop(): Promise<void> {
    this.thaw();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}
