import { describe, expect, it } from '@jest/globals';
import { PassThrough } from 'node:stream';
import { rateOf, startProgress } from './progress';

describe('progress', () => {
  it('computes a readable rate', () => {
    expect(rateOf(0, 0)).toBe('0');
    expect(rateOf(5, 2000)).toBe('2.5');
    expect(rateOf(12_345, 10_000)).toBe('1235');
  });

  it('prints plain lines, with the total and the time taken, where there is no terminal', () => {
    const stream = Object.assign(new PassThrough(), { isTTY: false }) as unknown as NodeJS.WriteStream;
    let out = '';
    (stream as unknown as PassThrough).on('data', (chunk: Buffer) => (out += chunk.toString()));
    const progress = startProgress('seeding events', 3, stream);
    progress.advance();
    progress.advance(2);
    progress.stop();
    expect(out).not.toContain('\r');
    expect(out).toMatch(/seeding events \[.*\] 3\/3 100%/);
    expect(out).toMatch(/seeding events: 3\/3 in \d+\.\d s\n$/);
  });
});
