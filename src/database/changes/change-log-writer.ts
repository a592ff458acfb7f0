import { Injectable } from '@nestjs/common';
import { DatabaseContext } from '../database-context';
import { ChangeHeadEntity } from './change-head.entity';
import { ChangeLogEntity } from './change-log.entity';
import type { RecordedChange } from './recorded-change';

const CHUNK = 300;

/**
 * Writes a transaction's changes as its last statements, after `write_sequence` was incremented: every
 * row carries that sequence value. The increment holds the sequence row's lock until commit, so writes
 * reach this point one at a time and commit in sequence order; a reader that sees sequence N committed
 * has every change below N too. That is what lets the change feed and the webhook dispatcher follow the
 * log with a cursor and never skip a row that committed late (auto-increment ids would not).
 */
@Injectable()
export class ChangeLogWriter {
  constructor(private readonly db: DatabaseContext) {}

  async write(seq: number, changedUtc: string, changes: readonly RecordedChange[]): Promise<void> {
    const manager = this.db.manager;
    for (let start = 0; start < changes.length; start += CHUNK) {
      const chunk = changes.slice(start, start + CHUNK);
      await this.db.insertOnly(
        ChangeLogEntity,
        chunk.map((c, i) => ({ ...c, seq, position: start + i, changedUtc })),
      );
      const living = chunk.filter((c) => c.action !== 'deleted');
      await this.db.upsert(
        ChangeHeadEntity,
        living.map((c) => ({ resource: c.resource, resourceId: c.resourceId, changedUtc, seq })),
        ['changed_utc', 'seq'],
        ['resource', 'resource_id'],
      );
      for (const gone of chunk.filter((c) => c.action === 'deleted')) {
        await manager
          .createQueryBuilder()
          .delete()
          .from(ChangeHeadEntity)
          .where('resource = :resource AND resource_id = :id', { resource: gone.resource, id: gone.resourceId })
          .execute();
      }
    }
  }
}
