import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createTestApp, type TestApp } from '../support/create-test-app';
import { describeTaxonomyRoutes } from '../support/taxonomy-suite';
import { createUser, type TestUser } from '../support/users';

describeTaxonomyRoutes({ restBase: 'tags', taxonomy: 'post_tag', hierarchical: false });

describe('tags: flat', () => {
  let t: TestApp;
  let editor: TestUser;
  const base = '/cal/events/v1/tags';

  beforeAll(async () => {
    t = await createTestApp();
    editor = await createUser(t, 'editor');
  });
  afterAll(async () => {
    await t.close();
  });

  it('refuses a parent on create and update with rest_taxonomy_not_hierarchical', async () => {
    const created = await t.http
      .post(base)
      .set('Authorization', editor.auth)
      .send({ name: 'Free', parent: 1 })
      .expect(400);
    expect(created.body.code).toBe('rest_taxonomy_not_hierarchical');
    const tag = await t.http.post(base).set('Authorization', editor.auth).send({ name: 'Free' }).expect(201);
    expect(tag.body).not.toHaveProperty('parent');
    const updated = await t.http
      .put(`${base}/${tag.body.id}`)
      .set('Authorization', editor.auth)
      .send({ parent: 0 })
      .expect(400);
    expect(updated.body.code).toBe('rest_taxonomy_not_hierarchical');
  });

  it('has no parent filter and no parent field in the documentation', async () => {
    await t.http.get(`${base}?parent=1`).expect(200);
    const doc = await t.http.get('/cal/events/v1/doc').expect(200);
    const params = doc.body.paths['/cal/events/v1/tags'].get.parameters.map((p: { name: string }) => p.name);
    expect(params).not.toContain('parent');
    const index = await t.http.get('/cal/events/v1').expect(200);
    const create = index.body.routes['/cal/events/v1/tags'].endpoints.find((e: { methods: string[] }) =>
      e.methods.includes('POST'),
    );
    expect(Object.keys(create.args).sort()).toEqual(['description', 'name', 'slug']);
    expect(create.args.name).toMatchObject({ required: true, type: 'string' });
  });
});
