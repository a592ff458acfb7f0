import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Role } from '../../src/auth/roles';
import { createTestApp, type TestApp } from '../support/create-test-app';
import { postEvent } from '../support/events';
import { createUsersForAllRoles, type TestUser } from '../support/users';

const base = '/cal/events/v1/events';

/** Record-level rights of behaviour.md §3 where they turn on a post's status history. */
describe('authorization by status', () => {
  let t: TestApp;
  let users: Record<Role, TestUser>;
  const as = (role: Role) => users[role].auth;

  beforeAll(async () => {
    t = await createTestApp();
    users = await createUsersForAllRoles(t);
  });
  afterAll(async () => {
    await t.close();
  });

  it('lets an author keep editing and trashing an own event made private', async () => {
    const event = await postEvent(t, as('author'), { title: 'Private party' });
    await t.http
      .patch(`${base}/${event.id}`)
      .set('Authorization', as('author'))
      .send({ status: 'private' })
      .expect(200);
    const edited = await t.http
      .patch(`${base}/${event.id}`)
      .set('Authorization', as('author'))
      .send({ title: 'Private party, renamed' })
      .expect(200);
    expect([edited.body.status, edited.body.title]).toEqual(['private', 'Private party, renamed']);
    expect((await t.http.get(`${base}/${event.id}`).set('Authorization', as('author')).expect(200)).body.id).toBe(
      event.id,
    );
    const trashed = await t.http.delete(`${base}/${event.id}`).set('Authorization', as('author')).expect(200);
    expect(trashed.body.status).toBe('trash');
  });

  it('keeps a contributor off an own event once published, also after it was trashed', async () => {
    const event = await postEvent(t, as('contributor'), { title: 'Submitted talk' });
    expect(event.status).toBe('draft');
    await t.http
      .patch(`${base}/${event.id}`)
      .set('Authorization', as('editor'))
      .send({ status: 'publish' })
      .expect(200);
    await t.http.delete(`${base}/${event.id}`).set('Authorization', as('editor')).expect(200);
    const edit = await t.http
      .patch(`${base}/${event.id}`)
      .set('Authorization', as('contributor'))
      .send({ title: 'Sneaky change', status: 'pending' })
      .expect(403);
    expect(edit.body.code).toBe('rest_forbidden');
    const restored = await t.http
      .patch(`${base}/${event.id}`)
      .set('Authorization', as('editor'))
      .send({ status: 'draft' })
      .expect(200);
    expect(restored.body.status).toBe('draft');
    await t.http
      .patch(`${base}/${event.id}`)
      .set('Authorization', as('contributor'))
      .send({ title: 'Fine now' })
      .expect(200);
  });

  it('lets a contributor edit an own draft that went to the trash', async () => {
    const event = await postEvent(t, as('contributor'), { title: 'Scratch idea' });
    await t.http.delete(`${base}/${event.id}`).set('Authorization', as('contributor')).expect(200);
    const back = await t.http
      .patch(`${base}/${event.id}`)
      .set('Authorization', as('contributor'))
      .send({ status: 'pending' })
      .expect(200);
    expect(back.body.status).toBe('pending');
  });

  it('answers a link to a record the writer may not read as it answers an unknown id', async () => {
    const ns = '/cal/events/v1';
    const hiddenVenue = await t.http
      .post(`${ns}/venues`)
      .set('Authorization', as('author'))
      .send({ venue: 'Author’s unannounced hall', status: 'draft' })
      .expect(201);
    const hiddenOrganizer = await t.http
      .post(`${ns}/organizers`)
      .set('Authorization', as('author'))
      .send({ organizer: 'Author’s secret society', status: 'draft' })
      .expect(201);
    const hiddenParent = await postEvent(t, as('author'), { title: 'Author’s draft series', status: 'draft' });
    const unknown = 999_999;
    const event = { title: 'Linking', start_date: '2030-04-01 10:00', end_date: '2030-04-01 11:00' };
    const attempt = (body: Record<string, unknown>, role: Role) =>
      t.http
        .post(base)
        .set('Authorization', as(role))
        .send({ ...event, ...body });
    const cases: [string, number][] = [
      ['venue', hiddenVenue.body.id as number],
      ['organizer', hiddenOrganizer.body.id as number],
      ['post_parent', hiddenParent.id],
    ];
    for (const [field, hiddenId] of cases) {
      const hidden = await attempt({ [field]: hiddenId }, 'contributor');
      const missing = await attempt({ [field]: unknown }, 'contributor');
      expect([field, hidden.status, missing.status]).toEqual([field, 400, 400]);
      expect(hidden.body.code).toBe(missing.body.code);
      const shape = (body: { message: string; data: Record<string, unknown> }, id: number) => ({
        message: body.message.replace(String(id), 'ID'),
        params: JSON.stringify(body.data.params).replace(String(id), 'ID'),
      });
      expect(shape(hidden.body, hiddenId)).toEqual(shape(missing.body, unknown));
      // Those who may read it link it.
      await attempt({ [field]: hiddenId }, 'author').expect(201);
      await attempt({ [field]: hiddenId }, 'editor').expect(201);
    }
  });
});
