import { DomainError, errorMessage } from '../../common/errors/domain-error';
import { RequestValidationError } from '../../common/validation/request-validation.error';
import { translateReason } from '../../common/validation/validation-messages';

/** A record an import names in its summary: its id in the source (`venue:7`, a UID) and why. */
export interface ImportEntry {
  id: string;
  reason: string;
}

/** What an import did (or, with `dry_run`, would do), record by record. */
export interface ImportSummary {
  source: string;
  dry_run: boolean;
  created: number;
  updated: number;
  unchanged: number;
  /** Cancelled in the source, or gone from it: moved to the trash here, never deleted. */
  trashed: number;
  /** Not imported, and why (cancelled before it was ever imported, a kind this service does not hold). */
  skipped: ImportEntry[];
  /** Imported, with something the operator should know (a slug that was taken, a protected event). */
  notes: ImportEntry[];
  /** Not imported because of an error; the next run tries again. */
  failed: ImportEntry[];
  /** Stopped on purpose before its end (`ImportCancelled`): what it wrote stays. */
  cancelled: boolean;
  /** In a dry run: each record a run would create, update or trash, with its title where known. */
  preview?: { id: string; outcome: ImportOutcome; title?: string }[];
  /**
   * Failed as a whole: the source could not be read or was refused part-way (a page that is not JSON, a
   * budget). Failures of single records are in `failed` and leave this false.
   */
  source_failed: boolean;
}

/** An import that cannot start or go on: the source is not what it should be, no user to write as. */
export class ImportError extends Error {}

/** A run stopped on purpose (its subscription was deleted or disabled): what it wrote stays, each record whole. */
export class ImportCancelled extends ImportError {
  constructor() {
    super('cancelled: the subscription was deleted or disabled while it ran');
  }
}

/**
 * The source's reading killed what read it (its parse worker ran out of heap or time, or died), or the run was
 * refused as the same source again: a run that ends so is not run again over an unchanged source.
 */
export class ImportCrashed extends ImportError {}

/** Ends a run between two records once its signal has fired. */
export function throwIfCancelled(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw new ImportCancelled();
}

/** How an import reports its progress: records done out of the total known so far. */
export type ImportProgress = (done: number, total: number) => void;

export type ImportOutcome = 'created' | 'updated' | 'unchanged' | 'trashed';

export function emptySummary(source: string, dryRun: boolean): ImportSummary {
  return {
    source,
    dry_run: dryRun,
    created: 0,
    updated: 0,
    unchanged: 0,
    trashed: 0,
    skipped: [],
    notes: [],
    failed: [],
    cancelled: false,
    source_failed: false,
    ...(dryRun ? { preview: [] } : {}),
  };
}

/** What a failed record's entry says: the validation problems, a domain error's message, any error's. */
export function reasonOf(error: unknown): string {
  if (error instanceof RequestValidationError) {
    return error.problems
      .map((p) => `${p.name} ${p.reasons.map((r) => translateReason(r, 'en')).join(', ')}`)
      .join('; ');
  }
  if (error instanceof DomainError) return errorMessage(error, 'en');
  return error instanceof Error ? error.message : String(error);
}

/** The summary as the CLI prints it. */
export function summaryText(summary: ImportSummary): string {
  const lines = [
    `${summary.dry_run ? 'dry run (nothing written): ' : ''}${summary.source}`,
    `created ${summary.created}, updated ${summary.updated}, unchanged ${summary.unchanged}, trashed ${summary.trashed}, skipped ${summary.skipped.length}, failed ${summary.failed.length}`,
    ...summary.notes.map((s) => `  note ${s.id}: ${s.reason}`),
    ...summary.skipped.map((s) => `  skipped ${s.id}: ${s.reason}`),
    ...summary.failed.map((f) => `  failed ${f.id || '(source)'}: ${f.reason}`),
    ...(summary.preview ?? []).map((p) => `  would be ${p.outcome} ${p.id}${p.title ? `: ${p.title}` : ''}`),
  ];
  return lines.join('\n');
}
