import { createHash } from 'node:crypto';
import type { ImportOptions } from '../dto/import-options.dto';
import type { KnownRecord } from '../import-ledger';
import type { ImportSummary } from '../import-summary';
import { matchingRule, parseIgnoreRule, type IgnoreRule } from './ignore-rules';
import type { IgnoredRecords } from './ignored-records';

/**
 * The ledger's hash of a record a run may bring back when the source shows it: one the import itself moved to
 * the trash (gone from the source, or cancelled there), or one an administrator cleared from the ignored
 * records. One an editor trashed or deleted here by hand is left out instead.
 */
export const RESTORABLE = 'restorable';

/**
 * What a source's options make of one run (issue 49), for every kind of import alike: which records it
 * passes by (ignore rules, the source's ignored list, records trashed or deleted here by hand), how many
 * events it takes (`limit`), whether it saw the whole source (only then is anything trashed as gone), the
 * status of what it creates, and what the options add to each record's hash (a changed option rewrites the
 * records it shapes).
 */
export class RunPolicy {
  private readonly rules: IgnoreRule[];
  private taken = 0;
  private limited = false;
  /** What the options that shape written records add to each record's hash; '' with none. */
  private readonly shape: string;

  private constructor(
    readonly options: ImportOptions,
    private readonly source: string,
    private readonly ignored: Set<string>,
    private readonly store: IgnoredRecords,
    private readonly summary: ImportSummary,
  ) {
    this.rules = (options.ignore ?? []).flatMap((text) => parseIgnoreRule(text) ?? []);
    const shaping = { status: options.status, categories: options.categories };
    this.shape = shaping.status === undefined && !shaping.categories?.length ? '' : JSON.stringify(shaping);
  }

  static async start(
    options: ImportOptions,
    source: string,
    store: IgnoredRecords,
    summary: ImportSummary,
  ): Promise<RunPolicy> {
    return new RunPolicy(options, source, await store.of(source), store, summary);
  }

  /**
   * Whether the run passes the record by, and why (in the report, and in the source's ignored list until an
   * administrator clears it): it is in that list, an ignore rule matches it, or it was imported and then
   * trashed or deleted here by hand (a run does not bring back what an editor removed).
   */
  async passesBy(sourceId: string, title: string, known?: KnownRecord): Promise<boolean> {
    if (this.ignored.has(sourceId)) {
      this.summary.skipped.push({ id: sourceId, reason: 'in the list of ignored records' });
      return true;
    }
    const rule = matchingRule(this.rules, { id: sourceId, title });
    const reason = rule
      ? `matches the ignore rule ${rule.text}`
      : known?.status === null && known.hash !== RESTORABLE
        ? 'deleted here after it was imported: not imported again until cleared from the ignored records'
        : known?.status === 'trash' && known.hash !== RESTORABLE
          ? 'trashed here after it was imported: not imported again until cleared from the ignored records'
          : null;
    if (reason === null) return false;
    await this.store.add(this.source, { sourceId, title, reason });
    this.ignored.add(sourceId);
    this.summary.skipped.push({ id: sourceId, reason });
    return true;
  }

  /** Counts one more event against `limit`: false once it is reached (the run reads no further). */
  takesEvent(): boolean {
    const { limit } = this.options;
    if (limit === undefined || this.taken < limit) {
      this.taken++;
      return true;
    }
    if (!this.limited)
      this.summary.skipped.push({
        id: 'events',
        reason: `the limit of ${limit} events per run was reached: the source's later events were not read`,
      });
    this.limited = true;
    return false;
  }

  /** Whether the run saw the whole source: no window, no limit reached. Only then is anything trashed as gone. */
  get complete(): boolean {
    return !this.limited && this.options.since === undefined && this.options.until === undefined;
  }

  /**
   * The status an event write gives: a new event the option's (else the source's); an update with the
   * option leaves the status here alone, unless the import itself trashed the event and now brings it back.
   */
  status(sourceStatus: unknown, known: KnownRecord | undefined): { status?: unknown } {
    const chosen = this.options.status;
    const restoring = known?.status === 'trash';
    if (!known) return { status: chosen ?? sourceStatus };
    if (restoring) return { status: chosen ?? (sourceStatus === undefined ? 'publish' : sourceStatus) };
    return chosen === undefined ? { status: sourceStatus } : {};
  }

  /** A record's hash as the ledger keeps it: the source's, with what the options add to the record. */
  hashOf(sourceHash: string): string {
    return this.shape === '' ? sourceHash : createHash('sha256').update(`${sourceHash}\n${this.shape}`).digest('hex');
  }

  /** The categories every imported event gets, by name (created when missing). */
  get categories(): string[] {
    return this.options.categories ?? [];
  }
}
