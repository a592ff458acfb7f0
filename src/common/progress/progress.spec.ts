import { describe, expect, it, jest } from '@jest/globals';
import { PassThrough } from 'node:stream';
import { rateOf, startProgress } from './progress';

describe('progress', () => {
  it('computes a readable rate', () => {
    expect(rateOf(0, 0)).toBe('0');
    expect(rateOf(5, 2000)).toBe('2.5');
    expect(rateOf(12_345, 10_000)).toBe('1235');
  });

  it('prints plain lines, every few seconds and with the total and the time taken, where there is no terminal', () => {
    jest.useFakeTimers({ now: new Date('2026-11-26T10:00:00Z') });
    try {
      const stream = Object.assign(new PassThrough(), { isTTY: false }) as unknown as NodeJS.WriteStream;
      let out = '';
      (stream as unknown as PassThrough).on('data', (chunk: Buffer) => (out += chunk.toString()));
      const progress = startProgress('seeding events', 4, stream);
      progress.advance();
      expect(out).toBe('');
      jest.setSystemTime(new Date('2026-11-26T10:00:06Z'));
      progress.advance(1, 'events 1-2');
      progress.advance();
      progress.advance();
      progress.stop();
      // No bar: its drawing characters and carriage returns only clutter a log file.
      expect(out).toBe('seeding events: 2/4 (50%, 0.3/s) events 1-2\nseeding events: 4/4 in 6.0 s\n');
    } finally {
      jest.useRealTimers();
    }
  });

  it('takes a total learnt as the work goes (a paged source), in its lines and its end', () => {
    jest.useFakeTimers({ now: new Date('2026-11-26T10:00:00Z') });
    try {
      const stream = Object.assign(new PassThrough(), { isTTY: false }) as unknown as NodeJS.WriteStream;
      let out = '';
      (stream as unknown as PassThrough).on('data', (chunk: Buffer) => (out += chunk.toString()));
      const progress = startProgress('import', 50, stream);
      progress.advance();
      progress.setTotal?.(100);
      jest.setSystemTime(new Date('2026-11-26T10:00:05Z'));
      progress.advance();
      progress.stop();
      expect(out).toBe('import: 2/100 (2%, 0.4/s)\nimport: 2/100 in 5.0 s\n');
    } finally {
      jest.useRealTimers();
    }
  });
});
