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
}
