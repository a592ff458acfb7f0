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
import { ImportError, reasonOf, type ImportOutcome, type ImportSummary } from './import-summary';

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
  /** Each run's turns between its records (`foregroundRequests.steps`), by the summary that run counts. */
  private readonly turns = new WeakMap<ImportSummary, () => Promise<void>>();

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
    if (!summary.dry_run) return body();
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
   * One record's work in its own transaction (in a dry run, behind a savepoint of the run's): its outcome,
   * counted in the summary, or null with the reason among the summary's failures.
   */
  async attempt(
    summary: ImportSummary,
    id: string,
    work: () => Promise<ImportOutcome | null>,
    title?: string,
  ): Promise<ImportOutcome | null> {
    // Between two records no transaction is open (each has its own): requests in flight go first. A dry
    // run is one transaction, which must not be left open to them.
    if (!summary.dry_run) await this.turnOf(summary)();
    let outcome: ImportOutcome | null;
    try {
      outcome = summary.dry_run ? await this.behindSavepoint(work) : await this.transactions.run(work);
    } catch (error) {
      if (error instanceof SavepointLost) throw error;
      summary.failed.push({ id, reason: reasonOf(error) });
      return null;
    }
    if (outcome !== null) summary[outcome]++;
    // A dry run says record by record what a run would do (created, updated, trashed).
    if (summary.preview && outcome !== null && outcome !== 'unchanged')
      summary.preview.push({ id, outcome, ...(title === undefined ? {} : { title }) });
    return outcome;
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
