import { Injectable } from '@nestjs/common';
import type { RequestContext } from '../../common/http/request-context';
import { DomainError } from '../../common/errors/domain-error';
import { RequestValidationError } from '../../common/validation/request-validation.error';
import { reason } from '../../common/validation/validation-messages';
import { AppConfig } from '../../config/app-config';
import { ChangeLogEntity } from '../../database/changes/change-log.entity';
import type { ChangeAction } from '../../database/changes/recorded-change';
import { committedSequence } from '../../database/changes/committed-sequence';
import { DatabaseContext } from '../../database/database-context';
import { ChangeSourceRegistry } from './change-source.registry';
import { mayLearnOf } from './change-visibility';
import type { ChangesQueryDto } from './dto/changes-query.dto';
import { afterWrite, decodeSyncToken, encodeSyncToken, isBefore, type SyncPosition } from './sync-token';

export interface ChangeItem {
  resource: string;
  id: number;
  action: ChangeAction;
  changed_utc: string;
  /** True for a tombstone: deleted, or no longer visible to the caller (trash, draft, private). */
  deleted: boolean;
  /** The record as the caller sees it now (absent in tombstones). */
  object?: object;
}

export interface ChangesAnswer {
  changes: ChangeItem[];
  /** Where the next request continues (`since`); also when nothing changed. */
  next_token: string;
  /** More changes are waiting: ask again at once with `next_token`. */
  more: boolean;
}

const DEFAULT_PAGE = 50;

/**
 * The change feed (`GET /changes`): the change log read from a client's position, one entry per changed
 * resource with its current object, or a tombstone where the caller cannot see it (any more).
 */
@Injectable()
export class ChangesService {
  constructor(
    private readonly db: DatabaseContext,
    private readonly sources: ChangeSourceRegistry,
    private readonly config: AppConfig,
  ) {}

  async changes(query: ChangesQueryDto, ctx: RequestContext): Promise<ChangesAnswer> {
    const resources = this.resourcesOf(query.resources);
    // Read before the rows: every write up to `head` has committed, so nothing at or below it is missed.
    const sequence = await committedSequence(this.db.manager);
    const head = { seq: sequence.value, purgedThrough: sequence.purgedThrough };
    if (query.since === undefined)
      return { changes: [], next_token: encodeSyncToken(afterWrite(head.seq)), more: false };
    const from = decodeSyncToken(query.since);
    if (!from) throw RequestValidationError.of({ since: reason('invalid') });
    // Older than what was pruned, or newer than this database ever was (a restored backup): resync.
    if (from.seq < head.purgedThrough || from.seq > head.seq) throw new DomainError('sync_token_expired');
    const limit = Math.min(query.per_page ?? DEFAULT_PAGE, this.config.maxPerPage);
    const rows = await this.rowsAfter(from, resources, limit + 1);
    const more = rows.length > limit;
    const page = rows.slice(0, limit);
    const last = page.at(-1);
    let next: SyncPosition = last ? { seq: last.seq, position: last.position } : from;
    if (!more && isBefore(next, afterWrite(head.seq))) next = afterWrite(head.seq);
    return { changes: await this.itemsOf(page, ctx), next_token: encodeSyncToken(next), more };
  }

  private resourcesOf(requested: string[] | undefined): string[] | undefined {
    if (requested === undefined) return undefined;
    const known = this.sources.resources();
    if (requested.some((r) => !known.includes(r))) {
      throw RequestValidationError.of({ resources: reason('list_of', known.join(', ')) });
    }
    return requested;
  }

  private rowsAfter(from: SyncPosition, resources: string[] | undefined, limit: number): Promise<ChangeLogEntity[]> {
    const qb = this.db.manager
      .createQueryBuilder(ChangeLogEntity, 'c')
      .where('(c.seq > :seq OR (c.seq = :seq AND c.position > :position))', from)
      .orderBy('c.seq', 'ASC')
      .addOrderBy('c.position', 'ASC')
      .limit(limit);
    if (resources) qb.andWhere('c.resource IN (:...resources)', { resources });
    return qb.getMany();
  }

  /**
   * One item per resource, at its last change in the page; visibility witnessed by any of its rows. The
   * objects are read now, so a client that applies the items ends with the server's current state.
   */
  private async itemsOf(rows: ChangeLogEntity[], ctx: RequestContext): Promise<ChangeItem[]> {
    const latest = new Map<string, ChangeLogEntity>();
    for (const row of rows) {
      const key = `${row.resource}\n${row.resourceId}`;
      const earlier = latest.get(key);
      latest.delete(key);
      latest.set(key, {
        ...row,
        publicBefore: row.publicBefore || (earlier?.publicBefore ?? false) || (earlier?.publicAfter ?? false),
      });
    }
    const objects = new Map<string, Map<number, object>>();
    for (const resource of new Set([...latest.values()].map((r) => r.resource))) {
      const source = this.sources.get(resource);
      if (!source) continue;
      const ids = [...latest.values()].filter((r) => r.resource === resource && r.action !== 'deleted');
      const found =
        ids.length === 0
          ? new Map<number, object>()
          : await source.visibleObjects(
              ids.map((r) => r.resourceId),
              ctx,
            );
      objects.set(resource, found);
    }
    const items: ChangeItem[] = [];
    for (const row of latest.values()) {
      const visible = objects.get(row.resource);
      if (!visible) continue;
      const object = visible.get(row.resourceId);
      const base = { resource: row.resource, id: row.resourceId, action: row.action, changed_utc: row.changedUtc };
      if (object) items.push({ ...base, deleted: false, object });
      else if (mayLearnOf(ctx.user, row)) items.push({ ...base, deleted: true });
    }
    return items;
  }
}
