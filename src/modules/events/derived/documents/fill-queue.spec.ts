import { describe, expect, it } from '@jest/globals';
import { FillQueue } from './fill-queue';

describe('FillQueue', () => {
  it('hands out the oldest ids first, each once, however often it was asked for', () => {
    const queue = new FillQueue(100);
    for (const id of [5, 3, 5, 9, 1, 3]) queue.add(id);
    expect(queue.take(2)).toEqual([5, 3]);
    expect(queue.take(10)).toEqual([9, 1]);
    expect(queue.take(10)).toEqual([]);
    expect(queue.size).toBe(0);
  });

  it('keeps no more than its capacity; an id it left out can be asked for again once there is room', () => {
    const queue = new FillQueue(3);
    for (const id of [1, 2, 3, 4]) queue.add(id);
    expect(queue.size).toBe(3);
    expect(queue.take(1)).toEqual([1]);
    queue.add(4);
    expect(queue.take(10)).toEqual([2, 3, 4]);
  });
});
