import { Injectable } from '@nestjs/common';
import { In } from 'typeorm';
import { foregroundRequests } from '../../common/background/foreground-requests';
import { toAuthUser, type AuthUser } from '../../auth/auth-user';
import { UsersService } from '../../auth/users.service';
import { Clock } from '../../common/dates/clock';
import type { RequestContext } from '../../common/http/request-context';
import { systemRequestContext } from '../../common/http/system-request-context';
import { AppConfig } from '../../config/app-config';
import { DatabaseContext } from '../../database/database-context';
import { WriteTransactions } from '../../database/write-transactions';
import { PostEntity } from '../../core/posts/post.entity';
import { ImportedRecordEntity } from './imported-record.entity';
import type { OverwriteRule } from './subscriptions/import-subscription.entity';
import { ImportedTermEntity } from './imported-term.entity';
import { RESTORABLE } from './options/run-policy';
import { ImportCancelled, ImportError, reasonOf, type ImportOutcome, type ImportSummary } from './import-summary';
import { isRetryableWriteConflict } from '../../common/errors/driver-errors';

/**
 * Records a real run writes in one transaction, each behind a savepoint: a batch holds the SQLite writer
 * (or MySQL's row locks) for tens of milliseconds, and saves the commit and the derived rows' pass of each.
 */
const BATCH_RECORDS = 25;

/** A record's work waiting for its batch. */
interface QueuedRecord {
  id: string;
  work: () => Promise<ImportOutcome | null>;
  title?: string;
}

/** Thrown inside a dry run's transaction so that nothing it wrote stays. */
class DryRunRollback extends Error {}

class SavepointLost extends ImportError {}

/** The note of a record `keep_local_edits` left as it was edited here. */
export const KEPT_AS_EDITED = 'edited here since it was last imported: kept as edited (keep_local_edits)';

/**
 * Whether the record here is as its last import left it in kind: there, and (a post) not in the trash. One
 * that is not is written again even when the source did not change.
 */
export function isCurrent(known: KnownRecord): boolean {
  return known.status !== null && known.status !== 'trash';
}

/** What a source's record became here, as `imported_records` / `imported_terms` keep it. */
export interface KnownRecord {
  rowId: number;
  /** The post or term here. */
  id: number;
  hash: string;
  /** When it was last written by an import. */
  importedUtc: string;
  /**
   * A post's status here as the run began (`trash` after it was trashed); null when the post is no longer here;
   * undefined for terms and for what the run itself wrote.
   */
  status?: string | null;
}

type LedgerEntity = typeof ImportedRecordEntity | typeof ImportedTermEntity;

/**
 * What every import shares: who it writes as, which record here each source record became (posts and terms
 * kept apart, as their ids are), and each record's work in its own transaction (rolled back in a dry run),
 * its failure written into the summary rather than ending the import.
 */
@Injectable()
export class ImportLedger {
  /** Each run's turns between its batches (`foregroundRequests.steps`), by the summary that run counts. */
  private readonly turns = new WeakMap<ImportSummary, () => Promise<void>>();
  /** Each real run's records waiting for their batch. */
  private readonly batches = new WeakMap<ImportSummary, QueuedRecord[]>();
  /** Each run's maps that its records change (`track`). */
  private readonly tracked = new WeakMap<ImportSummary, Map<string, KnownRecord>[]>();

  constructor(
    private readonly db: DatabaseContext,
    private readonly transactions: WriteTransactions,
    private readonly users: UsersService,
    private readonly config: AppConfig,
    private readonly clock: Clock,
  ) {}

  /**
   * The context an import writes in: the user named (by login, or by id for a subscription), else the first
   * administrator.
   */
  async contextFor(who: string | number | null | undefined, requestId: string): Promise<RequestContext> {
    const user =
      typeof who === 'string'
        ? await this.users.findByLogin(who)
        : typeof who === 'number'
          ? await this.users.findById(who)
          : (await this.users.list()).find((u) => u.role === 'administrator');
    if (!user)
      throw new ImportError(
        who === null || who === undefined ? 'no administrator to import as: name one with --as' : `no user "${who}"`,
      );
    return this.context(toAuthUser(user), requestId);
  }

  private context(user: AuthUser, requestId: string): RequestContext {
    return systemRequestContext(this.config, { user, requestId, clientAddress: 'import' });
  }

  /** The posts a source's records became, each with its status here (a trashed or deleted one is no longer current). */
  async posts(source: string): Promise<Map<string, KnownRecord>> {
    const known = await this.known(ImportedRecordEntity, source);
    const ids = [...known.values()].map((r) => r.id);
    const statuses = new Map<number, string>();
    // In slices: one statement per 500 posts, whatever the size of the source.
    for (let at = 0; at < ids.length; at += 500) {
      const posts = await this.db.manager.find(PostEntity, {
        select: { id: true, status: true },
        where: { id: In(ids.slice(at, at + 500)) },
      });
      for (const post of posts) statuses.set(post.id, post.status);
    }
    for (const record of known.values()) record.status = statuses.get(record.id) ?? null;
    return known;
  }

  terms(source: string): Promise<Map<string, KnownRecord>> {
    return this.known(ImportedTermEntity, source);
  }

  private async known(entity: LedgerEntity, source: string): Promise<Map<string, KnownRecord>> {
    const rows: (ImportedRecordEntity | ImportedTermEntity)[] = await this.db.manager.findBy(entity, { source });
    return new Map(
      rows.map((r) => [
        r.sourceId,
        { rowId: r.id, id: ('postId' in r ? r.postId : r.termId) ?? 0, hash: r.hash, importedUtc: r.importedUtc },
      ]),
    );
  }

  /**
   * Notes in the caller's transaction that `sourceId` became post `postId`, as the source said `hash`; what
   * the run's map of known records holds for it now.
   */
  rememberPost(
    source: string,
    sourceId: string,
    postId: number,
    hash: string,
    known?: KnownRecord,
  ): Promise<KnownRecord> {
    return this.remember(ImportedRecordEntity, { source, sourceId, postId, hash }, postId, known);
  }

  rememberTerm(
    source: string,
    sourceId: string,
    termId: number,
    hash: string,
    known?: KnownRecord,
  ): Promise<KnownRecord> {
    return this.remember(ImportedTermEntity, { source, sourceId, termId, hash }, termId, known);
  }

  private async remember(
    entity: LedgerEntity,
    row: Partial<ImportedRecordEntity> | Partial<ImportedTermEntity>,
    id: number,
    known: KnownRecord | undefined,
  ): Promise<KnownRecord> {
    const importedUtc = this.clock.nowSqlUtc();
    const full = { ...row, importedUtc };
    if (known) await this.db.manager.update(entity, { id: known.rowId }, full);
    else await this.db.insertOnly(entity, full);
    return { rowId: known?.rowId ?? 0, id, hash: row.hash ?? '', importedUtc };
  }

  /** Notes in the caller's transaction that the import itself trashed the record: the source showing it again restores it. */
  async markTrashed(known: KnownRecord): Promise<void> {
    await this.db.manager.update(ImportedRecordEntity, { id: known.rowId }, { hash: RESTORABLE });
    known.hash = RESTORABLE;
    known.status = 'trash';
  }

  /** Forgets a term the import deleted here: should the source show it again, it is made anew. */
  async forgetTerm(known: KnownRecord): Promise<void> {
    await this.db.manager.delete(ImportedTermEntity, { id: known.rowId });
  }

  /**
   * Whether `keep_local_edits` keeps the post as it is: edited here after its last import (its modified time
   * is later; an edit in the import's own second is not told apart).
   */
  async keepsLocalEdit(overwrite: OverwriteRule | undefined, known: KnownRecord): Promise<boolean> {
    if (overwrite !== 'keep_local_edits') return false;
    const post = await this.db.manager.findOneBy(PostEntity, { id: known.id });
    return post !== null && post.modifiedUtc > known.importedUtc;
  }

  /**
   * The whole import. A dry run is one transaction rolled back at its end, so that later records see
   * earlier ones (an event links the venue the same run made) exactly as a real run's would; its records
   * are kept apart by savepoints.
   */
  async run(summary: ImportSummary, body: () => Promise<void>): Promise<void> {
    if (!summary.dry_run) {
      // What was queued before a failure or a cancellation is written all the same, each record whole.
      try {
        await body();
      } finally {
        await this.flush(summary);
      }
      return;
    }
    const start = { ...summary, skipped: [...summary.skipped], notes: [...summary.notes], failed: [...summary.failed] };
    try {
      await this.transactions.run(async () => {
        // A retried transaction starts over: so does what it counted.
        Object.assign(summary, start, {
          skipped: [...start.skipped],
          notes: [...start.notes],
          failed: [...start.failed],
          preview: [],
        });
        await body();
        throw new DryRunRollback();
      });
    } catch (error) {
      if (!(error instanceof DryRunRollback)) throw error;
    }
  }

  /**
   * One record's work: in a real run queued into the run's batch (`flush` writes the batch in one
   * transaction, each record behind a savepoint), in a dry run at once behind a savepoint of the run's. Its
   * outcome is counted in the summary, its failure goes among the summary's failures; either way the import
   * goes on. The work must read what it depends on when it runs (the records before it in the batch are
   * written by then), not when it is queued.
   */
  async attempt(
    summary: ImportSummary,
    id: string,
    work: () => Promise<ImportOutcome | null>,
    title?: string,
  ): Promise<void> {
    const record = { id, work, title };
    if (summary.dry_run) {
      let outcome: ImportOutcome | null;
      try {
        outcome = await this.behindSavepoint(work);
      } catch (error) {
        if (error instanceof SavepointLost) throw error;
        summary.failed.push({ id, reason: reasonOf(error) });
        return;
      }
      return this.count(summary, record, outcome);
    }
    let batch = this.batches.get(summary);
    if (!batch) this.batches.set(summary, (batch = []));
    batch.push(record);
    if (batch.length >= BATCH_RECORDS) await this.flush(summary);
  }

  /**
   * The maps of what each source record became that a run's records change as they are written: a batch
   * that is tried again (a deadlock rolled it back) starts over from them as they were.
   */
  track(summary: ImportSummary, ...maps: Map<string, KnownRecord>[]): void {
    this.tracked.set(summary, maps);
  }

  /**
   * Writes the run's queued records: one transaction (fewer commits, derived rows brought in step once), each
   * record behind a savepoint so that its failure leaves the others. A conflict that rolls the whole
   * transaction back (a deadlock) runs the batch again from the state before it; a batch that cannot commit
   * at all is written record by record, each in its own transaction. Between two batches no transaction is
   * open: requests in flight go first.
   */
  async flush(summary: ImportSummary): Promise<void> {
    const batch = this.batches.get(summary)?.splice(0) ?? [];
    if (batch.length === 0) return;
    await this.turnOf(summary)();
    const before = this.stateOf(summary);
    try {
      await this.transactions.run(async () => {
        before.restore();
        for (const record of batch) await this.inBatch(summary, record);
      });
    } catch (error) {
      if (error instanceof ImportCancelled) throw error;
      before.restore();
      for (const record of batch) {
        let outcome: ImportOutcome | null;
        try {
          outcome = await this.transactions.run(record.work);
        } catch (failure) {
          summary.failed.push({ id: record.id, reason: reasonOf(failure) });
          continue;
        }
        this.count(summary, record, outcome);
      }
    }
  }

  private async inBatch(summary: ImportSummary, record: QueuedRecord): Promise<void> {
    const manager = this.db.manager;
    const changes = this.db.recordedChanges.length;
    await manager.query('SAVEPOINT import_record');
    let outcome: ImportOutcome | null;
    try {
      outcome = await record.work();
      await manager.query('RELEASE SAVEPOINT import_record');
    } catch (error) {
      // MySQL ends the whole transaction on a deadlock, savepoints with it: the batch is run again.
      if (isRetryableWriteConflict(error)) throw error;
      await manager.query('ROLLBACK TO SAVEPOINT import_record').catch(() => {
        throw error;
      });
      this.db.forgetChangesAfter(changes);
      summary.failed.push({ id: record.id, reason: reasonOf(error) });
      return;
    }
    this.count(summary, record, outcome);
  }

  private count(summary: ImportSummary, record: QueuedRecord, outcome: ImportOutcome | null): void {
    if (outcome === null) return;
    summary[outcome]++;
    // A dry run says record by record what a run would do (created, updated, trashed).
    if (summary.preview && outcome !== 'unchanged')
      summary.preview.push({ id: record.id, outcome, ...(record.title === undefined ? {} : { title: record.title }) });
  }

  /** The summary and the tracked maps as they are now, and how to set them back. */
  private stateOf(summary: ImportSummary): { restore: () => void } {
    const counts = {
      ...summary,
      skipped: [...summary.skipped],
      notes: [...summary.notes],
      failed: [...summary.failed],
    };
    const maps = (this.tracked.get(summary) ?? []).map((map) => ({
      map,
      entries: [...map].map(([key, value]) => [key, { ...value }] as const),
    }));
    return {
      restore: () => {
        Object.assign(summary, counts, {
          skipped: [...counts.skipped],
          notes: [...counts.notes],
          failed: [...counts.failed],
        });
        for (const { map, entries } of maps) {
          map.clear();
          for (const [key, value] of entries) map.set(key, { ...value });
        }
      },
    };
  }

  /** The turns of the run `summary` counts (one run, one piece of background work). */
  private turnOf(summary: ImportSummary): () => Promise<void> {
    let turn = this.turns.get(summary);
    if (!turn) this.turns.set(summary, (turn = foregroundRequests.steps()));
    return turn;
  }

  private async behindSavepoint<T>(work: () => Promise<T>): Promise<T> {
    const manager = this.db.manager;
    await manager.query('SAVEPOINT import_record');
    try {
      const result = await work();
      await manager.query('RELEASE SAVEPOINT import_record');
      return result;
    } catch (error) {
      // A deadlock ends the whole transaction (MySQL), savepoints with it: the dry run cannot go on.
      await manager.query('ROLLBACK TO SAVEPOINT import_record').catch((lost: unknown) => {
        throw new SavepointLost(`the dry run's transaction ended: ${reasonOf(lost)}`);
      });
      throw error;
    }
  }
}
