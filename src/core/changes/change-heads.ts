import { Injectable } from '@nestjs/common';
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

  /**
   * SQL for "`idColumn` changed after `:modifiedAfter`", for list filters (`modified_after`); the
   * caller binds `modifiedAfter` (UTC) and `changeResource`.
   */
  static changedAfterCondition(idColumn: string): string {
    return `${idColumn} IN (SELECT h.resource_id FROM change_heads h WHERE h.resource = :changeResource AND h.changed_utc > :modifiedAfter)`;
  }
}
