import { Injectable } from '@nestjs/common';
import type { RequestContext } from '../../common/http/request-context';

/**
 * What the change feed needs of a resource kind: the current objects of changed ids that the caller sees
 * in the kind's lists (as the list shows them: password-protected events blanked, drafts only to those
 * who may read them, trash to nobody). Ids left out become tombstones.
 */
export interface ChangeSource {
  /** The noun the writes record (`event`, `category`, a module's own). */
  resource: string;
  visibleObjects(ids: number[], ctx: RequestContext): Promise<Map<number, object>>;
}

/** The resource kinds the change feed can show; each resource module registers its own at start-up. */
@Injectable()
export class ChangeSourceRegistry {
  private readonly sources = new Map<string, ChangeSource>();

  add(source: ChangeSource): void {
    if (this.sources.has(source.resource)) throw new Error(`change source "${source.resource}" is registered twice`);
    this.sources.set(source.resource, source);
  }

  get(resource: string): ChangeSource | undefined {
    return this.sources.get(resource);
  }

  resources(): string[] {
    return [...this.sources.keys()];
  }
}
