import { Injectable } from '@nestjs/common';
import type { RecordedChange } from './changes/recorded-change';

/** Statements a module runs at the end of every content write, given what the write changed. */
export type CommitStep = (changes: readonly RecordedChange[]) => Promise<void>;

/**
 * Where modules keep what they derive from content in step with it (the event documents): each step runs
 * inside the write's transaction, after its work and before the content version moves, so the derived rows
 * commit, or roll back and retry, with the change itself. A step sees the transaction's merged changes,
 * the same list the change log records: every resource whose representation the write may have altered.
 */
@Injectable()
export class CommitSteps {
  private readonly steps: CommitStep[] = [];

  add(step: CommitStep): void {
    this.steps.push(step);
  }

  async run(changes: readonly RecordedChange[]): Promise<void> {
    for (const step of this.steps) await step(changes);
  }
}
