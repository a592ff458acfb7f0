import { Writable } from 'node:stream';

/** A writable that keeps what was written, for reading a CLI's or a logger's output in a test. */
export class CapturedStream extends Writable {
  private chunks: string[] = [];
  isTTY = false;

  override _write(chunk: Buffer | string, _encoding: BufferEncoding, done: () => void): void {
    this.chunks.push(chunk.toString());
    done();
  }

  get text(): string {
    return this.chunks.join('');
  }

  lines(): string[] {
    return this.text.split('\n').filter((line) => line.length > 0);
  }

  asWriteStream(): NodeJS.WriteStream {
    return this as unknown as NodeJS.WriteStream;
  }
}
