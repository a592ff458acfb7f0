import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { TermRelationshipsService } from '../../src/core/terms/term-relationships.service';
import { createTestApp, type TestApp } from '../support/create-test-app';
import { postEvent } from '../support/events';
import { insertPost } from '../support/posts';
import { describeTaxonomyRoutes } from '../support/taxonomy-suite';
import { createUser, type TestUser } from '../support/users';
import { inWriteTransaction } from '../support/write-transaction';

describeTaxonomyRoutes({ restBase: 'categories', taxonomy: 'cal_events_cat', hierarchical: true });

describe('categories: hierarchy', () => {
  let t: TestApp;
  let editor: TestUser;
  const base = '/cal/events/v1/categories';
  const create = async (body: Record<string, unknown>) =>
    (await t.http.post(base).set('Authorization', editor.auth).send(body).expect(201)).body as {
      id: number;
      parent: number;
    };
  const patch = (id: number, body: Record<string, unknown>) =>
    t.http.patch(`${base}/${id}`).set('Authorization', editor.auth).send(body);

  beforeAll(async () => {
    t = await createTestApp();
    editor = await createUser(t, 'editor');
  });
  afterAll(async () => {
    await t.close();
  });

  it('nests categories and links the parent', async () => {
    const music = await create({ name: 'Music' });
    const jazz = await create({ name: 'Jazz', parent: music.id });
    const res = await t.http.get(`${base}/${jazz.id}`).expect(200);
    expect(res.body.parent).toBe(music.id);
    expect(res.body.urls.up).toMatch(new RegExp(`${base}/${music.id}$`));
  });

  it('filters events by a category and every category below it, as WordPress does', async () => {
    const stage = await create({ name: 'Stage' });
    const theatre = await create({ name: 'Theatre', parent: stage.id });
    const comedy = await create({ name: 'Comedy', parent: theatre.id });
    const other = await create({ name: 'Other stage' });
    const event = async (title: string, categories: number[]) =>
      (
        await postEvent(t, editor.auth, {
          title,
          start_date: '2031-04-01 19:00:00',
          end_date: '2031-04-01 21:00:00',
          categories,
        })
      ).id;
    const onStage = await event('On stage', [stage.id]);
    const play = await event('A play', [theatre.id]);
    const standUp = await event('Stand-up', [comedy.id]);
    const both = await event('Stage and comedy', [stage.id, comedy.id]);
    const elsewhere = await event('Elsewhere', [other.id]);
    const listed = async (query: string) => {
      const res = await t.http
        .get(`/cal/events/v1/events?start_date=2031-04-01&end_date=2031-04-01&per_page=50&${query}`)
        .expect(200);
      expect(res.body.total).toBe(res.body.events.length);
      return (res.body.events as { id: number }[]).map((e) => e.id).sort((a, b) => a - b);
    };
    const sorted = (ids: number[]) => [...ids].sort((a, b) => a - b);
    expect(await listed('categories=stage')).toEqual(sorted([onStage, play, standUp, both]));
    expect(await listed(`categories=${theatre.id}`)).toEqual(sorted([play, standUp, both]));
    expect(await listed('categories=comedy')).toEqual(sorted([standUp, both]));
    expect(await listed('categories=theatre,other-stage')).toEqual(sorted([play, standUp, both, elsewhere]));
    // Signed in, through the same filter.
    const signedIn = await t.http
      .get('/cal/events/v1/events?start_date=2031-04-01&end_date=2031-04-01&categories=theatre')
      .set('Authorization', editor.auth)
      .expect(200);
    expect(sorted((signedIn.body.events as { id: number }[]).map((e) => e.id))).toEqual(sorted([play, standUp, both]));
  });

  it('allows the same name under different parents only', async () => {
    const a = await create({ name: 'Parent A' });
    const b = await create({ name: 'Parent B' });
    await create({ name: 'Kids', parent: a.id });
    await create({ name: 'Kids', parent: b.id });
    const res = await t.http
      .post(base)
      .set('Authorization', editor.auth)
      .send({ name: 'kids', parent: a.id })
      .expect(400);
    expect(res.body.code).toBe('term_exists');
  });

  it('refuses an unknown parent', async () => {
    const res = await t.http
      .post(base)
      .set('Authorization', editor.auth)
      .send({ name: 'Orphan', parent: 999999 })
      .expect(400);
    expect(res.body.data.params.parent).toBe('does not exist');
  });

  it('refuses cycles: the term itself or one of its descendants', async () => {
    const root = await create({ name: 'Root' });
    const child = await create({ name: 'Child', parent: root.id });
    const grandchild = await create({ name: 'Grandchild', parent: child.id });
    for (const parent of [root.id, child.id, grandchild.id]) {
      const res = await patch(root.id, { parent }).expect(400);
      expect(Object.keys(res.body.data.params)).toEqual(['parent']);
    }
    const moved = await patch(grandchild.id, { parent: root.id }).expect(200);
    expect(moved.body.parent).toBe(root.id);
    const detached = await patch(grandchild.id, { parent: 0 }).expect(200);
    expect(detached.body.parent).toBe(0);
    expect(detached.body.urls).not.toHaveProperty('up');
  });

  it('moves the children of a deleted category up to its parent', async () => {
    const top = await create({ name: 'Top' });
    const middle = await create({ name: 'Middle', parent: top.id });
    const leafA = await create({ name: 'Leaf A', parent: middle.id });
    const leafB = await create({ name: 'Leaf B', parent: middle.id });
    const post = await insertPost(t);
    await inWriteTransaction(t, () =>
      t.app.get(TermRelationshipsService).setPostTerms(post, 'cal_events_cat', [middle.id, leafA.id]),
    );
    await t.http.delete(`${base}/${middle.id}`).set('Authorization', editor.auth).expect(200);
    for (const leaf of [leafA, leafB])
      expect((await t.http.get(`${base}/${leaf.id}`).expect(200)).body.parent).toBe(top.id);
    const remaining = await t.http.get(`${base}?post=${post.id}&hide_empty=0`).expect(200);
    expect(remaining.body.categories.map((c: { id: number }) => c.id)).toEqual([leafA.id]);
  });

  it('filters by parent, with 0 for the top level, and refuses an unknown parent', async () => {
    const holder = await create({ name: 'Holder' });
    await create({ name: 'Held 1', parent: holder.id });
    await create({ name: 'Held 2', parent: holder.id });
    const res = await t.http.get(`${base}?hide_empty=0&parent=${holder.id}`).expect(200);
    expect(res.body.categories.map((c: { name: string }) => c.name)).toEqual(['Held 1', 'Held 2']);
    const top = await t.http.get(`${base}?hide_empty=0&parent=0&per_page=50`).expect(200);
    expect(top.body.categories.every((c: { parent: number }) => c.parent === 0)).toBe(true);
    expect(top.body.categories.map((c: { name: string }) => c.name)).toContain('Holder');
    const unknown = await t.http.get(`${base}?parent=999999`).expect(400);
    expect(Object.keys(unknown.body.data.params)).toEqual(['parent']);
  });
});
