import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Type } from '@nestjs/common';
import type { Role } from '../../src/auth/roles';
import { TermRelationshipsService } from '../../src/core/terms/term-relationships.service';
import { createTestApp, type TestApp } from './create-test-app';
import { insertPost } from './posts';
import { createUsersForAllRoles, type TestUser } from './users';
import { inWriteTransaction } from './write-transaction';

export interface TaxonomyUnderTest {
  restBase: string;
  taxonomy: string;
  hierarchical: boolean;
  /** The modules to run (a module's taxonomy on events); the calendar's when not given. */
  modules?: readonly Type[];
}

/**
 * Everything categories, tags and a module's taxonomy share (behaviour.md §9), run once per taxonomy.
 */
export function describeTaxonomyRoutes(subject: TaxonomyUnderTest): void {
  const base = `/cal/events/v1/${subject.restBase}`;

  describe(`${subject.restBase}: shared term routes`, () => {
    let t: TestApp;
    let users: Record<Role, TestUser>;
    const as = (role: Role) => users[role].auth;

    const create = async (body: Record<string, unknown>, role: Role = 'editor') => {
      const res = await t.http.post(base).set('Authorization', as(role)).send(body);
      expect(res.status).toBe(201);
      return res.body as { id: number; slug: string; name: string; count: number };
    };

    beforeAll(async () => {
      t = await createTestApp({ modules: subject.modules });
      users = await createUsersForAllRoles(t);
    });
    afterAll(async () => {
      await t.close();
    });

    describe('create', () => {
      it('answers 201 with the term object', async () => {
        const res = await t.http
          .post(base)
          .set('Authorization', as('editor'))
          .send({ name: 'Open Air', description: '<p onclick="x()">Under the <em>sky</em><script>1</script></p>' })
          .expect(201);
        const expected: Record<string, unknown> = {
          id: expect.any(Number),
          name: 'Open Air',
          slug: 'open-air',
          taxonomy: subject.taxonomy,
          description: '<p>Under the <em>sky</em></p>',
          count: 0,
          urls: {
            self: expect.stringMatching(new RegExp(`${base}/${res.body.id}$`)),
            collection: expect.stringMatching(new RegExp(`${base}$`)),
          },
        };
        if (subject.hierarchical) expected.parent = 0;
        expect(res.body).toEqual(expected);
        expect(Object.keys(res.body)).toEqual(
          subject.hierarchical
            ? ['id', 'name', 'slug', 'taxonomy', 'description', 'parent', 'count', 'urls']
            : ['id', 'name', 'slug', 'taxonomy', 'description', 'count', 'urls'],
        );
      });

      it('accepts a form body and a given slug, made unique with -2', async () => {
        const first = await create({ name: 'Theatre', slug: 'Stage Shows' });
        expect(first.slug).toBe('stage-shows');
        const res = await t.http
          .post(base)
          .set('Authorization', as('administrator'))
          .type('form')
          .send('name=Drama&slug=stage-shows');
        expect(res.status).toBe(201);
        expect(res.body.slug).toBe('stage-shows-2');
      });

      it('names a missing name and refuses an empty one', async () => {
        const missing = await t.http
          .post(base)
          .set('Authorization', as('editor'))
          .send({ description: 'x' })
          .expect(400);
        expect(missing.body).toMatchObject({ code: 'rest_missing_callback_param', data: { params: ['name'] } });
        const empty = await t.http.post(base).set('Authorization', as('editor')).send({ name: '  ' }).expect(400);
        expect(empty.body.code).toBe('rest_invalid_param');
        expect(Object.keys(empty.body.data.params)).toEqual(['name']);
      });

      it('refuses a duplicate name with term_exists and the existing id', async () => {
        const first = await create({ name: 'Workshops' });
        const res = await t.http.post(base).set('Authorization', as('editor')).send({ name: 'workshops' }).expect(400);
        expect(res.body.code).toBe('term_exists');
        expect(res.body.data.term_id).toBe(first.id);
      });

      it.each([
        [null, 401],
        ['subscriber', 403],
        ['contributor', 403],
        ['author', 403],
      ] as const)('refuses %s with %i', async (role, status) => {
        const req = t.http.post(base).send({ name: `Refused ${String(role)}` });
        const res = role ? await req.set('Authorization', as(role)) : await req;
        expect(res.status).toBe(status);
        expect(res.body.code).toBe('rest_forbidden');
      });

      it('still validates before refusing an anonymous caller', async () => {
        const res = await t.http.post(base).send({}).expect(400);
        expect(res.body.code).toBe('rest_missing_callback_param');
      });
    });

    describe('read', () => {
      it('reads a term by id, anonymously', async () => {
        const term = await create({ name: 'Readable' });
        const res = await t.http.get(`${base}/${term.id}`).expect(200);
        expect(res.body).toMatchObject({ id: term.id, name: 'Readable', slug: 'readable' });
      });

      it('answers an unknown id, or an id of the other taxonomy, with rest-term-not-found', async () => {
        const res = await t.http.get(`${base}/999999`).expect(404);
        expect(res.body.code).toBe('rest-term-not-found');
        const other = subject.restBase === 'tags' ? 'categories' : 'tags';
        const foreign = await t.http
          .post(`/cal/events/v1/${other}`)
          .set('Authorization', as('editor'))
          .send({ name: 'Foreign' })
          .expect(201);
        await t.http.get(`${base}/${foreign.body.id}`).expect(404);
        await t.http.delete(`${base}/${foreign.body.id}`).set('Authorization', as('editor')).expect(404);
      });

      it('answers a non-numeric id with rest_no_route', async () => {
        const res = await t.http.get(`${base}/abc`).expect(404);
        expect(res.body.code).toBe('rest_no_route');
      });

      it('speaks German under /de', async () => {
        const res = await t.http.get(`/de${base}/999999`).expect(404);
        expect(res.body.message).toBe('Der Begriff existiert nicht.');
      });
    });

    describe('update', () => {
      it.each(['post', 'put', 'patch'] as const)('updates partially with %s', async (method) => {
        const term = await create({ name: `Before ${method}`, description: 'kept' });
        const res = await t.http[method](`${base}/${term.id}`)
          .set('Authorization', as('editor'))
          .send({ name: `After ${method}` })
          .expect(200);
        expect(res.body).toMatchObject({ id: term.id, name: `After ${method}`, description: 'kept', slug: term.slug });
      });

      it('changes the slug, keeping it unique but free to stay the same', async () => {
        const a = await create({ name: 'Slug A' });
        await create({ name: 'Slug B' });
        const clash = await t.http.patch(`${base}/${a.id}`).set('Authorization', as('editor')).send({ slug: 'slug-b' });
        expect(clash.body.slug).toBe('slug-b-2');
        const same = await t.http
          .patch(`${base}/${a.id}`)
          .set('Authorization', as('editor'))
          .send({ slug: 'slug-b-2' });
        expect(same.body.slug).toBe('slug-b-2');
      });

      it('refuses renaming onto an existing name', async () => {
        const a = await create({ name: 'Rename A' });
        const b = await create({ name: 'Rename B' });
        const res = await t.http
          .put(`${base}/${b.id}`)
          .set('Authorization', as('editor'))
          .send({ name: 'RENAME A' })
          .expect(400);
        expect(res.body).toMatchObject({ code: 'term_exists', data: { term_id: a.id } });
      });

      it('needs an editor', async () => {
        const term = await create({ name: 'Guarded' });
        await t.http.patch(`${base}/${term.id}`).send({ name: 'x' }).expect(401);
        await t.http.patch(`${base}/${term.id}`).set('Authorization', as('author')).send({ name: 'x' }).expect(403);
        await t.http.patch(`${base}/999999`).set('Authorization', as('editor')).send({ name: 'x' }).expect(404);
      });
    });

    describe('delete', () => {
      it('deletes permanently and answers with the deleted term', async () => {
        const term = await create({ name: 'Doomed' });
        await t.http.delete(`${base}/${term.id}`).expect(401);
        await t.http.delete(`${base}/${term.id}`).set('Authorization', as('contributor')).expect(403);
        const res = await t.http.delete(`${base}/${term.id}`).set('Authorization', as('editor')).expect(200);
        expect(res.body).toMatchObject({ id: term.id, name: 'Doomed' });
        await t.http.get(`${base}/${term.id}`).expect(404);
        await t.http.delete(`${base}/${term.id}`).set('Authorization', as('editor')).expect(404);
      });

      it('removes the term from the posts that carried it', async () => {
        const term = await create({ name: 'Carried' });
        const post = await insertPost(t);
        await inWriteTransaction(t, () =>
          t.app.get(TermRelationshipsService).setPostTerms(post, subject.taxonomy, [term.id]),
        );
        await t.http.delete(`${base}/${term.id}`).set('Authorization', as('editor')).expect(200);
        const rows: unknown[] = await t.dataSource.query('SELECT * FROM term_relationships WHERE post_id = ?', [
          post.id,
        ]);
        expect(rows).toEqual([]);
      });
    });
  });

  describe(`${subject.restBase}: list`, () => {
    let t: TestApp;
    let editor: TestUser;
    const ids: Record<string, number> = {};
    let publishedPost: number;

    beforeAll(async () => {
      t = await createTestApp({ modules: subject.modules });
      editor = (await createUsersForAllRoles(t)).editor;
      for (const [name, description] of [
        ['Alpha', 'first letter'],
        ['beta', 'second'],
        ['Gamma Rays', 'physics'],
        ['Delta', 'river mouth'],
        ['Epsilon', ''],
      ]) {
        const res = await t.http.post(base).set('Authorization', editor.auth).send({ name, description }).expect(201);
        ids[name] = res.body.id;
      }
      const relationships = t.app.get(TermRelationshipsService);
      const p1 = await insertPost(t);
      const p2 = await insertPost(t);
      publishedPost = p1.id;
      await inWriteTransaction(t, async () => {
        await relationships.setPostTerms(p1, subject.taxonomy, [ids.Alpha, ids.beta]);
        await relationships.setPostTerms(p2, subject.taxonomy, [ids.beta]);
      });
    });
    afterAll(async () => {
      await t.close();
    });

    const names = (body: Record<string, { name: string }[]>) => body[subject.restBase].map((term) => term.name);

    it('hides empty terms by default and orders by name', async () => {
      const res = await t.http.get(base).expect(200);
      expect(names(res.body)).toEqual(['Alpha', 'beta']);
      expect(res.body[subject.restBase][1].count).toBe(2);
      expect(res.body.total).toBe(2);
      expect(res.headers['x-wp-total']).toBe('2');
      expect(res.headers['x-tec-totalpages']).toBe('1');
    });

    it('shows empty terms with hide_empty=false', async () => {
      const res = await t.http.get(`${base}?hide_empty=false`).expect(200);
      expect(names(res.body)).toEqual(['Alpha', 'beta', 'Delta', 'Epsilon', 'Gamma Rays']);
    });

    it.each([
      ['orderby=id&order=desc', ['Epsilon', 'Delta', 'Gamma Rays', 'beta', 'Alpha']],
      ['orderby=slug&order=DESC', ['Gamma Rays', 'Epsilon', 'Delta', 'beta', 'Alpha']],
      ['orderby=count&order=desc', ['beta', 'Alpha', 'Epsilon', 'Delta', 'Gamma Rays']],
      ['orderby=description', ['Epsilon', 'Alpha', 'Gamma Rays', 'Delta', 'beta']],
    ])('sorts with %s', async (query, expected) => {
      const res = await t.http.get(`${base}?hide_empty=0&${query}`).expect(200);
      expect(names(res.body)).toEqual(expected);
    });

    it('searches name and slug, case-insensitively, treating % and _ literally', async () => {
      expect(names((await t.http.get(`${base}?hide_empty=0&search=ALP`).expect(200)).body)).toEqual(['Alpha']);
      expect(names((await t.http.get(`${base}?hide_empty=0&search=gamma-r`).expect(200)).body)).toEqual(['Gamma Rays']);
      expect(names((await t.http.get(`${base}?hide_empty=0&search=%25`).expect(200)).body)).toEqual([]);
    });

    it('filters by slug, include and exclude', async () => {
      expect(names((await t.http.get(`${base}?hide_empty=0&slug=delta,beta`).expect(200)).body)).toEqual([
        'beta',
        'Delta',
      ]);
      const include = `include[]=${ids.Delta}&include[]=${ids.Epsilon}`;
      expect(names((await t.http.get(`${base}?hide_empty=0&${include}`).expect(200)).body)).toEqual([
        'Delta',
        'Epsilon',
      ]);
      const exclude = `exclude=${ids.Alpha},${ids.beta}`;
      expect(names((await t.http.get(`${base}?hide_empty=0&${exclude}`).expect(200)).body)).toEqual([
        'Delta',
        'Epsilon',
        'Gamma Rays',
      ]);
    });

    it('filters by post, with event as an alias that wins', async () => {
      expect(names((await t.http.get(`${base}?post=${publishedPost}`).expect(200)).body)).toEqual(['Alpha', 'beta']);
      const other = await insertPost(t);
      const res = await t.http.get(`${base}?post=${publishedPost}&event=${other.id}&hide_empty=0`).expect(200);
      expect(names(res.body)).toEqual([]);
    });

    it('answers a post the caller may not read like an unknown one (no existence oracle)', async () => {
      const draft = await insertPost(t, { status: 'draft' });
      const hidden = await t.http.get(`${base}?post=${draft.id}`).expect(400);
      const unknown = await t.http.get(`${base}?post=99999999`).expect(400);
      expect([hidden.body.code, hidden.body.data.params]).toEqual([unknown.body.code, unknown.body.data.params]);
      await t.http.get(`${base}?post=${draft.id}`).set('Authorization', editor.auth).expect(200);
    });

    it('paginates with links and total headers, and answers past the end with an empty page', async () => {
      const first = await t.http.get(`${base}?hide_empty=0&per_page=2`).expect(200);
      expect(names(first.body)).toEqual(['Alpha', 'beta']);
      expect(first.body.total).toBe(5);
      expect(first.body.total_pages).toBe(3);
      expect(first.body.next_rest_url).toContain('page=2');
      expect(first.body).not.toHaveProperty('previous_rest_url');
      expect(first.headers['x-tec-total']).toBe('5');
      expect(first.headers['x-wp-totalpages']).toBe('3');
      const last = await t.http.get(`${base}?hide_empty=0&per_page=2&page=3`).expect(200);
      expect(names(last.body)).toEqual(['Gamma Rays']);
      expect(last.body).not.toHaveProperty('next_rest_url');
      expect(last.body.previous_rest_url).toContain('page=2');
      const beyond = await t.http.get(`${base}?hide_empty=0&per_page=2&page=9`).expect(200);
      expect(beyond.body[subject.restBase]).toEqual([]);
    });

    it('clamps per_page to the maximum and echoes the effective query', async () => {
      const res = await t.http.get(`${base}?hide_empty=0&per_page=500`).expect(200);
      expect(res.body.rest_url).toMatch(/per_page=50(&|$)/);
      expect(res.body.rest_url).toContain('hide_empty=false');
    });

    it.each([
      ['per_page=0', 'per_page'],
      ['page=0', 'page'],
      ['page=x', 'page'],
      ['order=up', 'order'],
      ['orderby=colour', 'orderby'],
      ['hide_empty=perhaps', 'hide_empty'],
      ['search=', 'search'],
      ['include=', 'include'],
      ['include=999999', 'include'],
      ['exclude=1,abc', 'exclude'],
      ['post=999999', 'post'],
      ['event=0', 'event'],
      ['slug=', 'slug'],
    ])('refuses %s', async (query, param) => {
      const res = await t.http.get(`${base}?${query}`).expect(400);
      expect(res.body.code).toBe('rest_invalid_param');
      expect(Object.keys(res.body.data.params)).toEqual([param]);
    });
  });
}
