import { Injectable } from '@nestjs/common';
import type { RequestContext } from '../../../../common/http/request-context';

/** What the imports need of a child resource: its path, and a way to set an event's records from a source's. */
export interface RegisteredEventChild {
  readonly path: string;
  /**
   * Makes the event's records those of `objects` (a source instance's answer to `GET /events/{id}/<path>`):
   * each object's create fields, validated as a create is, in one transaction. Returns how many there are.
   */
  replaceAll(eventId: number, objects: readonly Record<string, unknown>[], ctx: RequestContext): Promise<number>;
}

/** The child resources modules declared, in the order their modules were built. */
@Injectable()
export class EventChildRegistry {
  private readonly children: RegisteredEventChild[] = [];

  register(child: RegisteredEventChild): void {
    if (this.children.some((c) => c.path === child.path))
      throw new Error(`the child resource "events/{id}/${child.path}" is declared twice`);
    this.children.push(child);
  }

  all(): readonly RegisteredEventChild[] {
    return this.children;
  }
}
