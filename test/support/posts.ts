import { PostEntity } from '../../src/core/posts/post.entity';
import type { PostStatus } from '../../src/core/posts/post-status';
import type { TestApp } from './create-test-app';

let counter = 0;

/**
 * A bare post row, for tests of the base that need posts before any post-type route exists.
 * Resource tests create their records through the API instead.
 */
export async function insertPost(
  t: TestApp,
  fields: { type?: string; status?: PostStatus; authorId?: number | null; dateUtc?: string; title?: string } = {},
): Promise<PostEntity> {
  const n = ++counter;
  const date = fields.dateUtc ?? '2025-01-01 10:00:00';
  return t.dataSource.getRepository(PostEntity).save({
    type: fields.type ?? 'cal_test',
    slug: `test-post-${n}`,
    title: fields.title ?? `Test post ${n}`,
    content: '',
    excerpt: '',
    status: fields.status ?? 'publish',
    authorId: fields.authorId ?? null,
    parentId: null,
    passwordHash: null,
    menuOrder: 0,
    dateLocal: date,
    dateUtc: date,
    modifiedLocal: date,
    modifiedUtc: date,
  });
}
