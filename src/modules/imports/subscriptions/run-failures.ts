import type { ImportEntry, ImportSummary } from '../import-summary';
import type { ImportRunEntity, RunStatus } from './import-run.entity';
import type { ImportSubscriptionEntity } from './import-subscription.entity';

/** How a run ended, for the subscription's run of failures: its source read, failed as a whole, or cancelled. */
export type RunEnd = { kind: 'read' } | { kind: 'failed'; reason: string } | { kind: 'cancelled' };

/** How a run of `status` with `summary` ended; a whole-run failure's reason is the last source-wide entry. */
export function runEndOf(status: RunStatus, summary: ImportSummary): RunEnd {
  if (status === 'cancelled') return { kind: 'cancelled' };
  if (!summary.source_failed) return { kind: 'read' };
  return { kind: 'failed', reason: sourceFailureOf(summary.failed) ?? 'failed' };
}

/** The reason a run gave for failing as a whole: it is reported last, after any record's. */
function sourceFailureOf(failed: ImportEntry[] | undefined): string | undefined {
  return failed?.findLast((f) => f.id === '')?.reason;
}

/** What a crashed run read of its source: the next run refuses to read the same again (see `SourceDigest`). */
export interface CrashedReading {
  runId: number;
  digest: string;
  reason: string;
}

/** The reading of the previous run, when that run crashed after reading some of its source. */
export function crashedReadingOf(previous: ImportRunEntity | null): CrashedReading | null {
  if (!previous?.crashed || !previous.sourceDigest) return null;
  const report = JSON.parse(previous.report) as { failed?: ImportEntry[] };
  const reason = sourceFailureOf(report.failed) ?? 'crashed';
  return { runId: previous.id, digest: previous.sourceDigest, reason };
}

const REFUSAL = 'not run again over an unchanged source';

/**
 * Why a run stops before reading its source further: it is what an earlier run crashed on. A run refused
 * so passes the first crash's reason on, so the chain names the run that crashed.
 */
export function unchangedSourceRefusal(crashed: CrashedReading): string {
  if (crashed.reason.startsWith(REFUSAL)) return crashed.reason;
  return (
    `${REFUSAL}: run ${crashed.runId} read the same and failed (${crashed.reason}); ` +
    'the next run goes on once the source changes'
  );
}

/**
 * The subscription's run of failures after a run: a run that read its source ends it (and lifts a
 * suspension), one that failed as a whole adds to it, and at `suspendAfter` in a row (0: never) the scheduler
 * stops running it until an administrator resumes it.
 */
export function failuresAfter(
  sub: Pick<ImportSubscriptionEntity, 'failedRuns' | 'suspendedReason' | 'suspendedUtc'>,
  end: RunEnd,
  suspendAfter: number,
  nowUtc: string,
): Pick<ImportSubscriptionEntity, 'failedRuns' | 'suspendedReason' | 'suspendedUtc'> {
  if (end.kind === 'cancelled') return pick(sub);
  if (end.kind === 'read') return { failedRuns: 0, suspendedReason: null, suspendedUtc: null };
  const failedRuns = sub.failedRuns + 1;
  if (sub.suspendedReason !== null || suspendAfter === 0 || failedRuns < suspendAfter)
    return { ...pick(sub), failedRuns };
  return {
    failedRuns,
    suspendedReason: `suspended after ${failedRuns} failed runs in a row; the last: ${end.reason}`.slice(0, 500),
    suspendedUtc: nowUtc,
  };
}

function pick(sub: Pick<ImportSubscriptionEntity, 'failedRuns' | 'suspendedReason' | 'suspendedUtc'>) {
  return { failedRuns: sub.failedRuns, suspendedReason: sub.suspendedReason, suspendedUtc: sub.suspendedUtc };
}
