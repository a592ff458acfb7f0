import { Injectable } from '@nestjs/common';
import { Clock } from '../../../common/dates/clock';
import { entityListResponse } from '../../../common/pagination/entity-list';
import { resolvePageRequest, type ListResponse } from '../../../common/pagination/pagination';
import { AppConfig } from '../../../config/app-config';
import { DatabaseContext } from '../../../database/database-context';
import { WriteTransactions } from '../../../database/write-transactions';
import { In } from 'typeorm';
import { ImportedRecordEntity } from '../imported-record.entity';
import { ImportIgnoredEntity } from './import-ignored.entity';
import { RESTORABLE } from './run-policy';

/** One record a source's runs pass by, as the run found it. */
export interface IgnoredEntry {
  sourceId: string;
  title: string;
  reason: string;
}

/**
 * The records each source's runs do not import (`import_ignored`), for the runs (which add to it) and for
 * administrators (who read and clear it: `GET|DELETE /imports/{id}/ignored`, `import:ignored`).
 */
@Injectable()
export class IgnoredRecords {
  constructor(
    private readonly db: DatabaseContext,
    private readonly transactions: WriteTransactions,
    private readonly clock: Clock,
    private readonly config: AppConfig,
  ) {}

  /** The source ids a source's runs pass by. */
  async of(source: string): Promise<Set<string>> {
    const rows = await this.db.manager.find(ImportIgnoredEntity, { select: { sourceId: true }, where: { source } });
    return new Set(rows.map((r) => r.sourceId));
  }

  /** Adds a record to the list (in a dry run, in its transaction, rolled back with it); one already there stays. */
  async add(source: string, entry: IgnoredEntry): Promise<void> {
    await this.transactions.run(() => this.insert(source, entry), { content: false });
  }

  private async insert(source: string, entry: IgnoredEntry): Promise<void> {
    await this.db.manager
      .createQueryBuilder()
      .insert()
      .into(ImportIgnoredEntity)
      .values({
        source,
        sourceId: entry.sourceId.slice(0, 191),
        title: entry.title.slice(0, 255),
        reason: entry.reason.slice(0, 255),
        ignoredUtc: this.clock.nowSqlUtc(),
      })
      .orIgnore()
      .execute();
  }

  list(
    source: string,
    page: number | undefined,
    perPage: number | undefined,
    collectionUrl: string,
  ): Promise<ListResponse> {
    return entityListResponse(this.db.manager, ImportIgnoredEntity, {
      key: 'ignored',
      where: { source },
      order: { id: 'ASC' },
      page: resolvePageRequest(page, perPage, this.config.maxPerPage),
      collectionUrl,
      toItems: (rows) => rows.map(shown),
    });
  }

  /** A source's whole list, oldest first (the CLI's). */
  async all(source: string): Promise<ReturnType<typeof shown>[]> {
    return (await this.db.manager.find(ImportIgnoredEntity, { where: { source }, order: { id: 'ASC' } })).map(shown);
  }

  /** Clears the list of a source, or one record of it: the next run imports what no rule ignores. */
  async clear(source: string, sourceId?: string): Promise<number> {
    const where = sourceId === undefined ? { source } : { source, sourceId };
    return this.transactions.run(
      async () => {
        const cleared = await this.db.manager.find(ImportIgnoredEntity, { select: { sourceId: true }, where });
        // What an editor trashed or deleted here, cleared, is brought back by the next run (`RESTORABLE`).
        for (let at = 0; at < cleared.length; at += 500)
          await this.db.manager.update(
            ImportedRecordEntity,
            { source, sourceId: In(cleared.slice(at, at + 500).map((r) => r.sourceId)) },
            { hash: RESTORABLE },
          );
        return (await this.db.manager.delete(ImportIgnoredEntity, where)).affected ?? 0;
      },
      { content: false },
    );
  }
}

/** An ignored record as the API and the CLI show it. */
function shown(row: ImportIgnoredEntity) {
  return { source_id: row.sourceId, title: row.title, reason: row.reason, ignored_utc: row.ignoredUtc };
}
