import type { PostEntity } from '../../../../core/posts/post.entity';

/** A parent's link to a record, with the record's post and companion rows (null when it has none yet). */
export interface LinkedRecord<TDetails> {
  parentId: number;
  post: PostEntity;
  details: TDetails | null;
}

/** Where one link type keeps its records and links: what a part of the union reads. */
export interface LinkedRecordsSource {
  /** `posts.type` of the linked records. */
  type: string;
  /** Their companion table. */
  details: new () => { postId: number };
  /** The link table (`event_id`, `linkColumn`, `sort_order`). */
  linkTable: string;
  linkColumn: string;
}

/** The objects of `links`, by parent, in linked order; a link whose record has no object (hidden) left out. */
export function objectsByParent<T>(links: readonly LinkedRecord<object>[], objects: Map<number, T>): Map<number, T[]> {
  const byParent = new Map<number, T[]>();
  for (const link of links) {
    const object = objects.get(link.post.id);
    if (object === undefined) continue;
    const list = byParent.get(link.parentId);
    if (list) list.push(object);
    else byParent.set(link.parentId, [object]);
  }
  return byParent;
}
