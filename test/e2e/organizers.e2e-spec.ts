import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createTestApp, type TestApp } from '../support/create-test-app';
import { describeLinkedPostType } from '../support/linked-post-type-suite';
import { createUser, type TestUser } from '../support/users';

describeLinkedPostType({
  restBase: 'organizers',
  nameField: 'organizer',
  noun: 'organizer',
  linkTable: 'event_organizers',
  linkColumn: 'organizer_id',
  searchable: { phone: '5550199', email: 'booking@quasar.example', website: 'https://nebula.example.org' },
});

describe('organizers: fields', () => {
  let t: TestApp;
  let editor: TestUser;
  const base = '/cal/events/v1/organizers';

  beforeAll(async () => {
    t = await createTestApp();
    editor = await createUser(t, 'editor');
  });
  afterAll(async () => {
    await t.close();
  });

  it('stores contact fields and describes the organizer as a schema.org Person', async () => {
    const created = await t.http
      .post(base)
      .set('Authorization', editor.auth)
      .send({
        organizer: 'Ada Promotions',
        phone: '+44 20 7946 0000',
        email: 'ada@example.org',
        website: 'https://ada.example.org',
      })
      .expect(201);
    expect(created.body).toMatchObject({
      phone: '+44 20 7946 0000',
      email: 'ada@example.org',
      website: 'https://ada.example.org',
    });
    const read = await t.http.get(`${base}/${created.body.id}`).expect(200);
    expect(read.body.json_ld).toEqual({
      '@context': 'http://schema.org',
      '@type': 'Person',
      name: 'Ada Promotions',
      url: read.body.url,
      telephone: '+44 20 7946 0000',
      email: 'ada@example.org',
      sameAs: 'https://ada.example.org',
    });
  });

  it('validates the e-mail address and website, and clears them with ""', async () => {
    const bad = await t.http
      .post(base)
      .set('Authorization', editor.auth)
      .send({ organizer: 'Bad', email: 'not-an-address', website: 'www.example.org' })
      .expect(400);
    expect(Object.keys(bad.body.data.params).sort()).toEqual(['email', 'website']);
    const ok = await t.http
      .post(base)
      .set('Authorization', editor.auth)
      .send({ organizer: 'Clear', email: 'x@example.org' })
      .expect(201);
    const cleared = await t.http
      .put(`${base}/${ok.body.id}`)
      .set('Authorization', editor.auth)
      .send({ email: '' })
      .expect(200);
    expect(cleared.body).not.toHaveProperty('email');
  });

  it('speaks German under /de', async () => {
    const res = await t.http.get('/de/cal/events/v1/organizers/999999').expect(404);
    expect(res.body.message).toBe('Veranstalter: der angeforderte Eintrag existiert nicht.');
  });
});
