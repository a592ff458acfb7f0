import { Injectable } from '@nestjs/common';
import { In } from 'typeorm';
import { ChangeHeadEntity } from '../../database/changes/change-head.entity';
import { DatabaseContext } from '../../database/database-context';

/** When resources last changed, including what they embed (`change_heads`). */
@Injectable()
export class ChangeHeads {
  constructor(private readonly db: DatabaseContext) {}

  /** UTC `YYYY-MM-DD HH:MM:SS`, or null for a resource with no head (none written since the log began). */
  async changedUtc(resource: string, id: number): Promise<string | null> {
    const head = await this.db.manager.findOneBy(ChangeHeadEntity, { resource, resourceId: id });
    return head?.changedUtc ?? null;
  }

  /** {@link changedUtc} of many resources of one kind, in one query; those without a head are left out. */
  async changedUtcOf(resource: string, ids: number[]): Promise<Map<number, string>> {
    if (ids.length === 0) return new Map();
    const heads = await this.db.manager.findBy(ChangeHeadEntity, { resource, resourceId: In(ids) });
    return new Map(heads.map((h) => [Number(h.resourceId), h.changedUtc]));
  }
}
