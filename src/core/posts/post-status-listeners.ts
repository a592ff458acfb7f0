import { Injectable } from '@nestjs/common';
import type { PostStatusChange } from '../terms/term-relationships.service';

export type PostStatusListener = (changes: PostStatusChange[]) => Promise<void>;

/**
 * What must follow a post's stored status in the same transaction, beside the term counts: a module
 * registers here (the events module keeps its per-day listing counts this way). Called by every path
 * that changes a status: updates, trash and the scheduled-post publisher.
 */
@Injectable()
export class PostStatusListeners {
  private readonly listeners: PostStatusListener[] = [];

  add(listener: PostStatusListener): void {
    this.listeners.push(listener);
  }

  async changed(changes: PostStatusChange[]): Promise<void> {
    if (changes.length === 0) return;
    for (const listener of this.listeners) await listener(changes);
  }
}
