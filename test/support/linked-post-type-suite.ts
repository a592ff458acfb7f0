import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Type } from '@nestjs/common';
import type { Role } from '../../src/auth/roles';
import { createTestApp, type TestApp } from './create-test-app';
import { insertEvent } from './posts';
import { captureStatements } from './statements';
import { createUsersForAllRoles, type TestUser } from './users';

export interface LinkedTypeUnderTest {
  restBase: string;
  /** The name field: `venue` or `organizer`. */
  nameField: string;
  noun: string;
  /** The event link table and its column naming the record (`event_venues`, `venue_id`). */
  linkTable: string;
  linkColumn: string;
  /** Resource modules to run, when the type is not one of the calendar's own (a team's module). */
  modules?: readonly Type[];
  /** Searchable companion fields with a value that contains a distinctive word. */
  searchable: Record<string, string>;
}

type Obj = Record<string, unknown> & { id: number; slug: string; status: string };

/** Everything venues and organizers share (behaviour.md §8), run once per post type. */
export function describeLinkedPostType(subject: LinkedTypeUnderTest): void {
  const base = `/cal/events/v1/${subject.restBase}`;
  const { nameField, noun } = subject;

  describe(`${subject.restBase}: write and read`, () => {
    let t: TestApp;
    let users: Record<Role, TestUser>;
    const as = (role: Role) => users[role].auth;
    const create = async (body: Record<string, unknown>, role: Role = 'editor'): Promise<Obj> => {
      const res = await t.http.post(base).set('Authorization', as(role)).send(body);
      expect(res.status).toBe(201);
      return res.body as Obj;
    };

    beforeAll(async () => {
      t = await createTestApp({ modules: subject.modules });
      users = await createUsersForAllRoles(t);
    });
    afterAll(async () => {
      await t.close();
    });

    it('creates with 201, publishes for authors and up, and reads back by id and slug', async () => {
      const created = await create(
        { [nameField]: 'The Grand Hall', description: '<p>Big <script>x</script>room</p>' },
        'author',
      );
      expect(created).toMatchObject({
        [nameField]: 'The Grand Hall',
        slug: 'the-grand-hall',
        status: 'publish',
        author: users.author.id,
        description: '<p>Big room</p>',
        url: expect.stringMatching(new RegExp(`/${noun}/the-grand-hall/$`)),
        rest_url: expect.stringMatching(new RegExp(`${base}/${created.id}$`)),
        global_id: expect.stringMatching(new RegExp(`\\?id=${created.id}$`)),
      });
      expect(created.date_utc).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
      expect(created).not.toHaveProperty('excerpt');
      expect(created).not.toHaveProperty('image');
      const byId = await t.http.get(`${base}/${created.id}`).expect(200);
      expect(byId.body).toMatchObject({
        id: created.id,
        json_ld: { '@context': 'http://schema.org', name: 'The Grand Hall' },
      });
      const bySlug = await t.http.get(`${base}/by-slug/the-grand-hall`).expect(200);
      expect(bySlug.body.id).toBe(created.id);
    });

    it('names a missing name and refuses an empty one, even for anonymous callers', async () => {
      const missing = await t.http.post(base).send({ description: 'x' }).expect(400);
      expect(missing.body).toMatchObject({ code: 'rest_missing_callback_param', data: { params: [nameField] } });
      const empty = await t.http
        .post(base)
        .set('Authorization', as('editor'))
        .send({ [nameField]: '' })
        .expect(400);
      expect(Object.keys(empty.body.data.params)).toEqual([nameField]);
    });

    it('needs a contributor or more to create', async () => {
      await t.http
        .post(base)
        .send({ [nameField]: 'Nope' })
        .expect(401);
      const res = await t.http
        .post(base)
        .set('Authorization', as('subscriber'))
        .send({ [nameField]: 'Nope' })
        .expect(403);
      expect(res.body.code).toBe('rest_forbidden');
    });

    it('turns a contributor’s publish into pending and keeps drafts', async () => {
      expect((await create({ [nameField]: 'Contrib One', status: 'publish' }, 'contributor')).status).toBe('pending');
      expect((await create({ [nameField]: 'Contrib Two' }, 'contributor')).status).toBe('draft');
    });

    it('schedules a record dated in the future and publishes it at that date', async () => {
      const future = await create({ [nameField]: 'Later Place', date_utc: '2999-01-01 10:00:00' });
      expect(future.status).toBe('future');
      await t.http.get(`${base}/${future.id}`).expect(403);
      const past = await create({ [nameField]: 'Past Place', date: '2001-01-01 10:00' });
      expect(past).toMatchObject({ status: 'publish', date: '2001-01-01 10:00:00', date_utc: '2001-01-01 10:00:00' });
    });

    it('refuses a bad date, status, author or image', async () => {
      const res = await t.http
        .post(base)
        .set('Authorization', as('editor'))
        .send({ [nameField]: 'Bad', date: 'tomorrow', status: 'trash', image: 'ftp://x/y.png', author: 0 })
        .expect(400);
      expect(Object.keys(res.body.data.params).sort()).toEqual(['author', 'date', 'image', 'status']);
      const unknownImage = await t.http
        .post(base)
        .set('Authorization', as('editor'))
        .send({ [nameField]: 'Img', image: 999999 });
      expect(unknownImage.body.data.params).toEqual({ image: 'does not exist' });
      const unknownAuthor = await t.http
        .post(base)
        .set('Authorization', as('editor'))
        .send({ [nameField]: 'Auth', author: 999999 });
      expect(unknownAuthor.body.data.params).toEqual({ author: 'does not exist' });
    });

    it('lets only editors give another author', async () => {
      const mine = await create({ [nameField]: 'Given Author', author: users.author.id }, 'editor');
      expect(mine.author).toBe(users.author.id);
      await t.http
        .post(base)
        .set('Authorization', as('author'))
        .send({ [nameField]: 'Not Mine', author: users.editor.id })
        .expect(403);
    });

    it('records an image URL as an attachment and reuses attachment ids', async () => {
      const withUrl = await create({ [nameField]: 'Pictured', image: 'https://cdn.example.org/pics/front.PNG' });
      expect(withUrl.image).toEqual({
        id: expect.any(Number),
        url: 'https://cdn.example.org/pics/front.PNG',
        extension: 'png',
        mime_type: 'image/png',
      });
      const imageId = (withUrl.image as { id: number }).id;
      const reused = await create({ [nameField]: 'Also Pictured', image: String(imageId) });
      expect((reused.image as { id: number }).id).toBe(imageId);
      const cleared = await t.http
        .patch(`${base}/${reused.id}`)
        .set('Authorization', as('editor'))
        .send({ image: '' })
        .expect(200);
      expect(cleared.body).not.toHaveProperty('image');
    });

    it('reuses a record with the same name (any case) and description instead of duplicating it', async () => {
      const first = await create({ [nameField]: 'Twin Peaks', description: 'same' });
      const again = await create({ [nameField]: 'twin peaks', description: 'same' });
      expect(again.id).toBe(first.id);
      const different = await create({ [nameField]: 'Twin Peaks', description: 'other' });
      expect(different.id).not.toBe(first.id);
      expect(different.slug).toBe('twin-peaks-2');
    });

    it.each(['post', 'put', 'patch'] as const)('updates partially by id and by slug with %s', async (method) => {
      const record = await create({ [nameField]: `Updatable ${method}`, description: 'kept' });
      const byId = await t.http[method](`${base}/${record.id}`)
        .set('Authorization', as('editor'))
        .send({ [nameField]: `Renamed ${method}` })
        .expect(200);
      expect(byId.body).toMatchObject({ [nameField]: `Renamed ${method}`, description: 'kept', slug: record.slug });
      const bySlug = await t.http[method](`${base}/by-slug/${record.slug}`)
        .set('Authorization', as('editor'))
        .send({ description: '' })
        .expect(200);
      expect(bySlug.body).not.toHaveProperty('description');
    });

    it('keeps the slug stable on rename, so by-slug links keep working, and frees nothing', async () => {
      const record = await create({ [nameField]: 'Old Name' });
      await t.http
        .patch(`${base}/${record.id}`)
        .set('Authorization', as('editor'))
        .send({ [nameField]: 'New Name' })
        .expect(200);
      expect((await t.http.get(`${base}/by-slug/old-name`).expect(200)).body.id).toBe(record.id);
      await t.http.get(`${base}/by-slug/new-name`).expect(404);
      const newcomer = await create({ [nameField]: 'Old Name', description: 'another' });
      expect(newcomer.slug).toBe('old-name-2');
    });

    it('writes a changed companion field by primary key, only that column, and nothing when unchanged', async () => {
      const [field, value] = Object.entries(subject.searchable)[0];
      const record = await create({ [nameField]: 'Counted Record', [field]: value });
      const detailsStatements = async (body: Record<string, unknown>) => {
        const statements = await captureStatements(t, () =>
          t.http.patch(`${base}/${record.id}`).set('Authorization', as('editor')).send(body).expect(200),
        );
        const transaction = statements.slice(
          statements.findIndex((sql) => /^(START|BEGIN) TRANSACTION/.test(sql)),
          statements.indexOf('COMMIT'),
        );
        return {
          reads: transaction.filter((sql) => /^SELECT .* FROM [`"]\w+_details[`"]/.test(sql)).length,
          writes: transaction.filter((sql) => /^(UPDATE|INSERT INTO) [`"]\w+_details[`"]/.test(sql)),
        };
      };
      const changed = await detailsStatements({ [field]: `${value} 2` });
      // The row read under the record's lock is written back without `save`'s second read.
      expect(changed.reads).toBe(1);
      expect(changed.writes).toHaveLength(1);
      expect(changed.writes[0]).toMatch(
        new RegExp(`^UPDATE [\`"]\\w+_details[\`"] SET [\`"]${field}[\`"] = \\? WHERE`),
      );
      expect(await detailsStatements({ [field]: `${value} 2`, description: 'only the post changed' })).toEqual({
        reads: 1,
        writes: [],
      });
      expect((await t.http.get(`${base}/${record.id}`).expect(200)).body[field]).toBe(`${value} 2`);
      // A record without its companion row (imported) gets one.
      const table = changed.writes[0].split(/[`"]/)[1];
      await t.dataSource.query(`DELETE FROM ${table} WHERE post_id = ?`, [record.id]);
      expect((await detailsStatements({ [field]: value })).writes).toEqual([expect.stringMatching(/^INSERT INTO/)]);
      expect((await t.http.get(`${base}/${record.id}`).expect(200)).body[field]).toBe(value);
    });

    it('applies the ownership rules to updates', async () => {
      const byAuthor = await create({ [nameField]: 'Author Owned' }, 'author');
      await t.http
        .patch(`${base}/${byAuthor.id}`)
        .set('Authorization', as('author'))
        .send({ description: 'mine' })
        .expect(200);
      const byOther = await create({ [nameField]: 'Editor Owned' }, 'editor');
      await t.http
        .patch(`${base}/${byOther.id}`)
        .set('Authorization', as('author'))
        .send({ description: 'x' })
        .expect(403);
      const draft = await create({ [nameField]: 'Contributor Draft' }, 'contributor');
      await t.http
        .patch(`${base}/${draft.id}`)
        .set('Authorization', as('contributor'))
        .send({ description: 'ok' })
        .expect(200);
      const published = await create({ [nameField]: 'Published Elsewhere' }, 'editor');
      await t.http
        .patch(`${base}/${published.id}`)
        .set('Authorization', as('contributor'))
        .send({ description: 'x' })
        .expect(403);
      await t.http.patch(`${base}/${published.id}`).send({ description: 'x' }).expect(401);
    });

    it('answers unknown ids and slugs with 404 and bad ids with rest_no_route', async () => {
      expect((await t.http.get(`${base}/999999`).expect(404)).body.code).toBe(`rest-${noun}-not-found`);
      expect((await t.http.get(`${base}/by-slug/nothing-here`).expect(404)).body.code).toBe(`rest-${noun}-not-found`);
      expect((await t.http.get(`${base}/12abc`).expect(404)).body.code).toBe('rest_no_route');
      await t.http.patch(`${base}/999999`).set('Authorization', as('editor')).send({ description: 'x' }).expect(404);
    });

    it('hides non-public records from those without edit rights with 403', async () => {
      const draft = await create({ [nameField]: 'Secret Draft', status: 'draft' }, 'contributor');
      const res = await t.http.get(`${base}/${draft.id}`).expect(403);
      expect(res.body.code).toBe(`${noun}-not-accessible`);
      await t.http.get(`${base}/${draft.id}`).set('Authorization', as('author')).expect(403);
      await t.http.get(`${base}/${draft.id}`).set('Authorization', as('contributor')).expect(200);
      await t.http.get(`${base}/${draft.id}`).set('Authorization', as('editor')).expect(200);
      await t.http.get(`${base}/by-slug/${draft.slug}`).expect(403);
    });

    it('trashes, answers 410 the second time, unlinks from events, and deletes for good with force', async () => {
      const record = await create({ [nameField]: 'Trash Me' });
      const eventId = await insertEvent(t, {
        startUtc: '2030-01-01 10:00:00',
        links: [{ table: subject.linkTable, column: subject.linkColumn, ids: [record.id] }],
      });
      await t.http.delete(`${base}/${record.id}`).expect(401);
      await t.http.delete(`${base}/${record.id}`).set('Authorization', as('contributor')).expect(403);
      const trashed = await t.http.delete(`${base}/${record.id}`).set('Authorization', as('editor')).expect(200);
      expect(trashed.body).toMatchObject({ id: record.id, status: 'trash' });
      const links: unknown[] = await t.dataSource.query(`SELECT * FROM ${subject.linkTable} WHERE event_id = ?`, [
        eventId,
      ]);
      expect(links).toEqual([]);
      const again = await t.http.delete(`${base}/${record.id}`).set('Authorization', as('editor')).expect(410);
      expect(again.body.code).toBe(`${noun}-is-in-trash`);
      await t.http.get(`${base}/${record.id}`).expect(403);
      await t.http.delete(`${base}/${record.id}?force=true`).set('Authorization', as('author')).expect(403);
      const gone = await t.http
        .delete(`${base}/${record.id}?force=true`)
        .set('Authorization', as('editor'))
        .expect(200);
      // Gone, in WordPress core's shape: `previous` is the record as it was (trashed here).
      expect(gone.body).toMatchObject({ deleted: true, previous: { id: record.id, status: 'trash' } });
      await t.http.get(`${base}/${record.id}`).set('Authorization', as('editor')).expect(404);
    });

    it('lets an author trash its own published record by slug', async () => {
      const record = await create({ [nameField]: 'Author Trash' }, 'author');
      const res = await t.http.delete(`${base}/by-slug/${record.slug}`).set('Authorization', as('author')).expect(200);
      expect(res.body.status).toBe('trash');
    });

    it('brings a trashed record back only when a status is asked for', async () => {
      const record = await create({ [nameField]: 'Comeback' });
      await t.http.delete(`${base}/${record.id}`).set('Authorization', as('editor')).expect(200);
      const still = await t.http
        .patch(`${base}/${record.id}`)
        .set('Authorization', as('editor'))
        .send({ description: 'x' });
      expect(still.body.status).toBe('trash');
      const back = await t.http
        .patch(`${base}/${record.id}`)
        .set('Authorization', as('editor'))
        .send({ status: 'publish' });
      expect(back.body.status).toBe('publish');
    });
  });

  describe(`${subject.restBase}: list`, () => {
    let t: TestApp;
    let users: Record<Role, TestUser>;
    const ids: Record<string, number> = {};
    const names = (body: Record<string, { [k: string]: unknown }[]>) => body[subject.restBase].map((r) => r[nameField]);

    beforeAll(async () => {
      t = await createTestApp({ modules: subject.modules });
      users = await createUsersForAllRoles(t);
      const make = async (name: string, role: Role, extra: Record<string, unknown> = {}) => {
        const res = await t.http
          .post(base)
          .set('Authorization', users[role].auth)
          .send({ [nameField]: name, ...extra })
          .expect(201);
        ids[name] = res.body.id;
      };
      await make('Zebra Lounge', 'editor', { description: 'stripes and jazz' });
      await make('alpha Room', 'editor', subject.searchable);
      await make('Middle House', 'author', { description: 'quiet' });
      await make('Draft By Contributor', 'contributor');
      await make('Draft By Editor', 'editor', { status: 'draft' });
      const link = (id: number) => ({ links: [{ table: subject.linkTable, column: subject.linkColumn, ids: [id] }] });
      await insertEvent(t, { startUtc: '2999-06-01 10:00:00', ...link(ids['Zebra Lounge']) });
      await insertEvent(t, { startUtc: '2001-06-01 10:00:00', ...link(ids['alpha Room']) });
      await insertEvent(t, { status: 'draft', startUtc: '2999-06-01 10:00:00', ...link(ids['Middle House']) });
    });
    afterAll(async () => {
      await t.close();
    });

    it('shows anonymous callers published records ordered by name, with totals', async () => {
      const res = await t.http.get(base).expect(200);
      expect(names(res.body)).toEqual(['alpha Room', 'Middle House', 'Zebra Lounge']);
      expect(res.body.total).toBe(3);
      expect(res.body.total_pages).toBe(1);
      expect(res.headers['x-tec-total']).toBe('3');
      expect(res.headers['x-wp-totalpages']).toBe('1');
      expect(res.body.rest_url).toContain(`${base}?page=1&per_page=10`);
    });

    it('shows editors every status but trash, and contributors their own drafts', async () => {
      const editor = await t.http.get(base).set('Authorization', users.editor.auth).expect(200);
      expect(editor.body.total).toBe(5);
      const contributor = await t.http.get(base).set('Authorization', users.contributor.auth).expect(200);
      expect(names(contributor.body)).toEqual(['alpha Room', 'Draft By Contributor', 'Middle House', 'Zebra Lounge']);
      const drafts = await t.http.get(`${base}?status=draft`).set('Authorization', users.editor.auth).expect(200);
      expect(names(drafts.body)).toEqual(['Draft By Contributor', 'Draft By Editor']);
    });

    it('refuses other statuses to anonymous callers and unknown statuses to everyone', async () => {
      await t.http.get(`${base}?status=publish`).expect(200);
      expect((await t.http.get(`${base}?status=draft`).expect(400)).body.data.params).toHaveProperty('status');
      await t.http.get(`${base}?status=bogus`).set('Authorization', users.editor.auth).expect(400);
    });

    it('searches every word within one field', async () => {
      expect(names((await t.http.get(`${base}?search=jazz stripes`).expect(200)).body)).toEqual(['Zebra Lounge']);
      expect(names((await t.http.get(`${base}?search=zebra jazz`).expect(200)).body)).toEqual([]);
      for (const [field, value] of Object.entries(subject.searchable)) {
        const word = value.split(/[\s@.]+/).find((w) => w.length > 3) ?? value;
        const res = await t.http.get(`${base}?search=${encodeURIComponent(word)}`).expect(200);
        expect({ field, names: names(res.body) }).toEqual({ field, names: ['alpha Room'] });
      }
    });

    it('filters by linked event, has_events and only_with_upcoming', async () => {
      const eventId = await insertEvent(t, {
        startUtc: '2999-01-01 00:00:00',
        links: [{ table: subject.linkTable, column: subject.linkColumn, ids: [ids['Middle House']] }],
      });
      expect(names((await t.http.get(`${base}?event=${eventId}`).expect(200)).body)).toEqual(['Middle House']);
      expect(names((await t.http.get(`${base}?has_events=true`).expect(200)).body)).toEqual([
        'alpha Room',
        'Middle House',
        'Zebra Lounge',
      ]);
      expect(
        names((await t.http.get(`${base}?has_events=0&per_page=50`).set('Authorization', users.editor.auth)).body),
      ).toEqual(['Draft By Contributor', 'Draft By Editor']);
      expect(names((await t.http.get(`${base}?only_with_upcoming=1`).expect(200)).body)).toEqual([
        'Middle House',
        'Zebra Lounge',
      ]);
      const unknown = await t.http.get(`${base}?event=999999`).expect(400);
      expect(unknown.body.data.params).toEqual({ event: 'does not exist' });
    });

    it('paginates, clamps per_page and answers past the last page with 404', async () => {
      const first = await t.http.get(`${base}?per_page=2`).expect(200);
      expect(names(first.body)).toEqual(['alpha Room', 'Middle House']);
      expect(first.body.next_rest_url).toContain('page=2');
      const second = await t.http.get(`${base}?per_page=2&page=2`).expect(200);
      expect(second.body.previous_rest_url).toContain('page=1');
      expect(second.body).not.toHaveProperty('next_rest_url');
      const beyond = await t.http.get(`${base}?per_page=2&page=3`).expect(404);
      expect(beyond.body.code).toBe(`${noun}-archive-page-not-found`);
      expect((await t.http.get(`${base}?per_page=1000`).expect(200)).body.rest_url).toContain('per_page=50');
      await t.http.get(`${base}?per_page=-1`).expect(400);
    });
  });
}
