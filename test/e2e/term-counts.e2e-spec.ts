import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { FuturePostsPublisher } from '../../src/core/posts/future-posts.publisher';
import { PostEntity } from '../../src/core/posts/post.entity';
import type { PostStatus } from '../../src/core/posts/post-status';
import { TermRelationshipsService } from '../../src/core/terms/term-relationships.service';
import { createTestApp, type TestApp } from '../support/create-test-app';
import { insertPost } from '../support/posts';
import { createUser, type TestUser } from '../support/users';
import { inWriteTransaction } from '../support/write-transaction';

describe('term counts', () => {
  let t: TestApp;
  let editor: TestUser;
  let relationships: TermRelationshipsService;

  const newTerm = async (restBase: 'categories' | 'tags', name: string): Promise<number> =>
    (await t.http.post(`/cal/events/v1/${restBase}`).set('Authorization', editor.auth).send({ name }).expect(201)).body
      .id;
  const count = async (restBase: 'categories' | 'tags', id: number): Promise<number> =>
    (await t.http.get(`/cal/events/v1/${restBase}/${id}`).expect(200)).body.count;
  const assign = (postId: number, taxonomy: string, termIds: number[]) =>
    inWriteTransaction(t, async (m) => {
      const post = await m.findOneByOrFail(PostEntity, { id: postId });
      await relationships.setPostTerms(post, taxonomy, termIds);
    });
  const setStatus = (postId: number, status: PostStatus) =>
    inWriteTransaction(t, async (m) => {
      const { status: from } = await m.findOneByOrFail(PostEntity, { id: postId });
      await m.update(PostEntity, { id: postId }, { status });
      await relationships.postStatusChanged([{ postId, from, to: status }]);
    });

  beforeAll(async () => {
    t = await createTestApp({ env: { FUTURE_POSTS_INTERVAL_SECONDS: '3600' } });
    editor = await createUser(t, 'editor');
    relationships = t.app.get(TermRelationshipsService);
  });
  afterAll(async () => {
    await t.close();
  });

  it('counts published posts on assign and unassign', async () => {
    const cat = await newTerm('categories', 'Counted');
    const tag = await newTerm('tags', 'counted');
    const a = await insertPost(t);
    const b = await insertPost(t);
    await assign(a.id, 'cal_events_cat', [cat]);
    await assign(b.id, 'cal_events_cat', [cat]);
    await assign(a.id, 'post_tag', [tag]);
    expect(await count('categories', cat)).toBe(2);
    expect(await count('tags', tag)).toBe(1);
    await assign(a.id, 'cal_events_cat', []);
    expect(await count('categories', cat)).toBe(1);
    expect(await count('tags', tag)).toBe(1);
  });

  it('leaves drafts out and follows publish, unpublish and trash', async () => {
    const cat = await newTerm('categories', 'Statuses');
    const post = await insertPost(t, { status: 'draft' });
    await assign(post.id, 'cal_events_cat', [cat]);
    expect(await count('categories', cat)).toBe(0);
    await setStatus(post.id, 'publish');
    expect(await count('categories', cat)).toBe(1);
    await setStatus(post.id, 'pending');
    expect(await count('categories', cat)).toBe(0);
    await setStatus(post.id, 'publish');
    await setStatus(post.id, 'trash');
    expect(await count('categories', cat)).toBe(0);
    const hidden = await t.http.get('/cal/events/v1/categories?slug=statuses').expect(200);
    expect(hidden.body.categories).toEqual([]);
  });

  it('counts a scheduled post once its date has come and the publisher ran', async () => {
    const cat = await newTerm('categories', 'Scheduled');
    const post = await insertPost(t, { status: 'future', dateUtc: '2000-01-01 00:00:00' });
    await assign(post.id, 'cal_events_cat', [cat]);
    expect(await count('categories', cat)).toBe(0);
    const published = await t.app.get(FuturePostsPublisher).publishDue();
    expect(published).toContain(post.id);
    expect(await count('categories', cat)).toBe(1);
    expect((await t.dataSource.getRepository(PostEntity).findOneByOrFail({ id: post.id })).status).toBe('publish');
  });

  it('leaves a scheduled post of the future alone', async () => {
    const post = await insertPost(t, { status: 'future', dateUtc: '2999-01-01 00:00:00' });
    expect(await t.app.get(FuturePostsPublisher).publishDue()).not.toContain(post.id);
  });

  it('drops the count when a post is deleted for good', async () => {
    const tag = await newTerm('tags', 'ephemeral');
    const post = await insertPost(t);
    await assign(post.id, 'post_tag', [tag]);
    expect(await count('tags', tag)).toBe(1);
    await inWriteTransaction(t, async (m) => {
      await relationships.detachPosts([post]);
      await m.delete(PostEntity, { id: post.id });
    });
    expect(await count('tags', tag)).toBe(0);
  });
});
