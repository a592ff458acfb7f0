import { describe, expect, it } from '@jest/globals';
import { mergeChanges, type RecordedChange } from './recorded-change';

const change = (resourceId: number, action: RecordedChange['action'], publicAfter = true): RecordedChange => ({
  resource: 'event',
  resourceId,
  action,
  publicBefore: false,
  publicAfter,
  authorId: 2,
});

describe('mergeChanges', () => {
  it('keeps one change per resource, in the order resources were first touched', () => {
    const merged = mergeChanges([change(5, 'updated'), change(1, 'updated'), change(5, 'updated')]);
    expect(merged.map((c) => c.resourceId)).toEqual([5, 1]);
  });

  it('keeps the weightiest action: a creation stays a creation, a deletion wins over everything', () => {
    expect(mergeChanges([change(1, 'created'), change(1, 'status_changed')])[0].action).toBe('created');
    expect(mergeChanges([change(1, 'updated'), change(1, 'trashed')])[0].action).toBe('trashed');
    expect(mergeChanges([change(1, 'created'), change(1, 'deleted')])[0].action).toBe('deleted');
  });

  it('runs visibility from the first state to the last', () => {
    const [merged] = mergeChanges([
      { ...change(1, 'updated', true), publicBefore: true },
      { ...change(1, 'trashed', false), publicBefore: true },
    ]);
    expect(merged).toMatchObject({ publicBefore: true, publicAfter: false });
  });

  it('tells resources of different kinds with the same id apart', () => {
    expect(mergeChanges([change(1, 'updated'), { ...change(1, 'updated'), resource: 'venue' }])).toHaveLength(2);
  });

  it('does not change the changes it was given', () => {
    const first = change(1, 'updated');
    mergeChanges([first, change(1, 'deleted')]);
    expect(first.action).toBe('updated');
  });
});
