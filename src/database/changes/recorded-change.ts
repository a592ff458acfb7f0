/** What happened to a resource in one write. */
export const CHANGE_ACTIONS = ['created', 'updated', 'status_changed', 'trashed', 'untrashed', 'deleted'] as const;
export type ChangeAction = (typeof CHANGE_ACTIONS)[number];

/**
 * One resource's change as a write records it (`DatabaseContext.recordChange`). `publicBefore`/
 * `publicAfter` tell whether anyone could read it before and after: the change feed tells callers who
 * cannot read drafts about a record only if it was public at one of the two moments, so that an
 * anonymous client never learns that a draft exists. `authorId` lets authors follow their own drafts.
 */
export interface RecordedChange {
  /** The REST noun: `event`, `venue`, `organizer`, `category`, `tag`, or a module's own. */
  resource: string;
  resourceId: number;
  action: ChangeAction;
  publicBefore: boolean;
  publicAfter: boolean;
  authorId: number | null;
}

/** When one write records several changes of one resource, the one that says most wins. */
const WEIGHT: Record<ChangeAction, number> = {
  updated: 0,
  status_changed: 1,
  untrashed: 2,
  trashed: 3,
  created: 4,
  deleted: 5,
};

/**
 * The changes of one transaction, one per resource, in the order each resource was first touched: a
 * write that creates an event and then sets its status is one `created`, one whose record was created
 * and deleted again is one `deleted`, and visibility runs from the first state to the last.
 */
export function mergeChanges(changes: readonly RecordedChange[]): RecordedChange[] {
  const merged = new Map<string, RecordedChange>();
  for (const change of changes) {
    const key = `${change.resource}\n${change.resourceId}`;
    const earlier = merged.get(key);
    if (!earlier) {
      merged.set(key, { ...change });
      continue;
    }
    if (WEIGHT[change.action] > WEIGHT[earlier.action]) earlier.action = change.action;
    earlier.publicAfter = change.publicAfter;
    earlier.authorId = change.authorId ?? earlier.authorId;
  }
  return [...merged.values()];
}
