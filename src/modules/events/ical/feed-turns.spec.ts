import { describe, expect, it } from '@jest/globals';
import { FeedTurns } from './feed-turns';

describe('FeedTurns', () => {
  it('gives `concurrent` turns, queues as many again, refuses the rest, and hands a freed turn on', async () => {
    const turns = new FeedTurns(2);
    const first = await turns.take();
    const second = await turns.take();
    expect(first).not.toBeNull();
    expect(second).not.toBeNull();
    const third = turns.take();
    const fourth = turns.take();
    expect(turns.queued).toBe(2);
    expect(await turns.take()).toBeNull();
    first!();
    // Released twice: the second call gives nothing back twice.
    first!();
    const thirdRelease = await third;
    expect(thirdRelease).not.toBeNull();
    expect(turns.queued).toBe(1);
    second!();
    expect(await fourth).not.toBeNull();
    expect(turns.queued).toBe(0);
  });
});
