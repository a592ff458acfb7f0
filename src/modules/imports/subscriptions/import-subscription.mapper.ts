import type { ImportEntry } from '../import-summary';
import type { ImportRunEntity } from './import-run.entity';
import type { ImportSubscriptionEntity } from './import-subscription.entity';
import { optionsOf, shownOptions } from './subscription-options';

/** A run as the API shows it: its counts and its report. */
export function toRunObject(run: ImportRunEntity) {
  const report = JSON.parse(run.report) as { skipped?: ImportEntry[]; notes?: ImportEntry[]; failed?: ImportEntry[] };
  return {
    id: run.id,
    subscription: run.subscriptionId,
    trigger: run.trigger,
    status: run.status,
    crashed: run.crashed,
    started_utc: run.startedUtc,
    finished_utc: run.finishedUtc,
    created: run.created,
    updated: run.updated,
    unchanged: run.unchanged,
    trashed: run.trashed,
    skipped: report.skipped ?? [],
    notes: report.notes ?? [],
    failed: report.failed ?? [],
  };
}

export type RunObject = ReturnType<typeof toRunObject>;

/** A subscription as the API shows it: never its password, only whether it has one. */
export function toImportObject(sub: ImportSubscriptionEntity, lastRun: ImportRunEntity | null, namespaceUrl: string) {
  return {
    id: sub.id,
    kind: sub.kind,
    url: sub.url,
    description: sub.description,
    user: sub.sourceUser ?? '',
    has_password: sub.sourcePassword !== null && sub.sourcePassword !== '',
    ...shownOptions(optionsOf(sub)),
    interval_minutes: sub.intervalMinutes,
    overwrite: sub.overwrite,
    enabled: sub.enabled,
    failed_runs: sub.failedRuns,
    suspended_reason: sub.suspendedReason,
    suspended_utc: sub.suspendedUtc,
    next_run_utc: sub.nextRunUtc,
    created_utc: sub.createdUtc,
    modified_utc: sub.modifiedUtc,
    last_run: lastRun ? toRunObject(lastRun) : null,
    urls: {
      self: `${namespaceUrl}/imports/${sub.id}`,
      runs: `${namespaceUrl}/imports/${sub.id}/runs`,
      run: `${namespaceUrl}/imports/${sub.id}/run`,
      preview: `${namespaceUrl}/imports/${sub.id}/preview`,
      ignored: `${namespaceUrl}/imports/${sub.id}/ignored`,
    },
  };
}

export type ImportObject = ReturnType<typeof toImportObject>;
