import type { RecordedChange } from '../../../database/changes/recorded-change';
import { EVENT_POST_TYPE } from './event.post-type';

/** The events a write's changes name that still exist (deleted ones were taken out before their delete). */
export function changedEvents(changes: readonly RecordedChange[]): number[] {
  return changes.filter((c) => c.resource === EVENT_POST_TYPE.noun && c.action !== 'deleted').map((c) => c.resourceId);
}

/** The events a write's changes name as created in it. */
export function createdEvents(changes: readonly RecordedChange[]): Set<number> {
  return new Set(
    changes.filter((c) => c.resource === EVENT_POST_TYPE.noun && c.action === 'created').map((c) => c.resourceId),
  );
}

export const noop = (): Promise<void> => Promise.resolve();
