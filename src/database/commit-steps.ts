import { Injectable } from '@nestjs/common';
import type { RecordedChange } from './changes/recorded-change';
import { DatabaseContext } from './database-context';

/** Statements a module runs at the end of every content write, given what the write changed. */
export type CommitStep = (changes: readonly RecordedChange[]) => Promise<void>;

/** Statements a module runs just before records are deleted for good (their rows still there to read). */
export type DeletionStep = (resource: string, ids: readonly number[]) => Promise<void>;

/**
 * Where modules keep what they derive from content in step with it (the event documents, the listing's day
 * counts, the word index): one change stream for all of them, so a new derived store needs no edit of any
 * write path. Each step runs
 * inside the write's transaction, after its work and before the content version moves, so the derived rows
 * commit, or roll back and retry, with the change itself. A step sees the transaction's merged changes,
 * the same list the change log records: every resource whose representation the write may have altered.
 */
@Injectable()
export class CommitSteps {
  private readonly steps: CommitStep[] = [];
  private readonly deletionSteps: DeletionStep[] = [];

  constructor(private readonly db: DatabaseContext) {}

  add(step: CommitStep): void {
    this.steps.push(step);
  }

  /**
   * A step for deletions, run before the rows go: a derived store that counts a record must read what it
   * counted it as, which the delete's cascade would take with it.
   */
  addBeforeDelete(step: DeletionStep): void {
    this.deletionSteps.push(step);
  }

  async run(changes: readonly RecordedChange[]): Promise<void> {
    for (const step of this.steps) {
      // Each step's rows for thousands of changes (a series) are work of their own: others go between them.
      if (changes.length > 1) await this.db.yieldTurn();
      await step(changes);
    }
  }

  /** Called by whatever deletes records for good, inside its transaction, before the delete. */
  async beforeDelete(resource: string, ids: readonly number[]): Promise<void> {
    if (ids.length === 0) return;
    for (const step of this.deletionSteps) await step(resource, ids);
  }
}
