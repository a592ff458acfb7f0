import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createTestApp, type TestApp } from '../support/create-test-app';
import { describeLinkedPostType } from '../support/linked-post-type-suite';
import { createUser, type TestUser } from '../support/users';

describeLinkedPostType({
  restBase: 'venues',
  nameField: 'venue',
  noun: 'venue',
  linkTable: 'event_venues',
  linkColumn: 'venue_id',
  searchable: {
    address: 'Wallstreet 7',
    city: 'Springfield',
    province: 'Ontario',
    state: 'Kentucky',
    zip: '90210',
    phone: '5550199',
  },
});

describe('venues: fields', () => {
  let t: TestApp;
  let editor: TestUser;
  const base = '/cal/events/v1/venues';
  const create = async (body: Record<string, unknown>) =>
    (await t.http.post(base).set('Authorization', editor.auth).send(body).expect(201)).body as Record<
      string,
      unknown
    > & { id: number };

  beforeAll(async () => {
    t = await createTestApp();
    editor = await createUser(t, 'editor');
  });
  afterAll(async () => {
    await t.close();
  });

  it('stores every field and describes the venue as a schema.org Place', async () => {
    const venue = await create({
      venue: 'Philharmonie',
      address: 'Herbert-von-Karajan-Str. 1',
      city: 'Berlin',
      country: 'Germany',
      province: 'Berlin',
      zip: '10785',
      phone: '+49 30 254880',
      website: 'https://www.berliner-philharmoniker.de',
      show_map: false,
      show_map_link: '0',
    });
    expect(venue).toMatchObject({
      address: 'Herbert-von-Karajan-Str. 1',
      city: 'Berlin',
      country: 'Germany',
      province: 'Berlin',
      stateprovince: 'Berlin',
      zip: '10785',
      phone: '+49 30 254880',
      website: 'https://www.berliner-philharmoniker.de',
      show_map: false,
      show_map_link: false,
    });
    expect(venue).not.toHaveProperty('state');
    const read = await t.http.get(`${base}/${venue.id}`).expect(200);
    expect(read.body.json_ld).toEqual({
      '@context': 'http://schema.org',
      '@type': 'Place',
      name: 'Philharmonie',
      url: read.body.url,
      address: {
        '@type': 'PostalAddress',
        streetAddress: 'Herbert-von-Karajan-Str. 1',
        addressLocality: 'Berlin',
        addressRegion: 'Berlin',
        postalCode: '10785',
        addressCountry: 'Germany',
      },
      telephone: '+49 30 254880',
      sameAs: 'https://www.berliner-philharmoniker.de',
    });
  });

  it.each([
    [{ country: 'United States', state: 'NY', province: 'x' }, 'NY'],
    [{ country: '', state: 'TX', province: 'y' }, 'TX'],
    [{ country: 'Canada', state: 'z', province: 'Quebec' }, 'Quebec'],
    [{ country: 'Canada', province: 'Quebec', stateprovince: 'QC' }, 'QC'],
  ])('derives stateprovince from %p', async (fields, expected) => {
    const venue = await create({ venue: `SP ${expected} ${Object.keys(fields).length}`, ...fields });
    expect(venue.stateprovince).toBe(expected);
  });

  it('shows maps by default and clears fields with ""', async () => {
    const venue = await create({ venue: 'Clearable', city: 'Paris', website: 'https://example.org' });
    expect(venue).toMatchObject({ show_map: true, show_map_link: true });
    const res = await t.http
      .patch(`${base}/${venue.id}`)
      .set('Authorization', editor.auth)
      .send({ city: '', website: '' })
      .expect(200);
    expect(res.body).not.toHaveProperty('city');
    expect(res.body).not.toHaveProperty('website');
  });

  it('validates the website, booleans and lengths', async () => {
    const res = await t.http
      .post(base)
      .set('Authorization', editor.auth)
      .send({ venue: 'Bad', website: 'javascript:alert(1)', show_map: 'maybe', zip: '1'.repeat(21) })
      .expect(400);
    expect(Object.keys(res.body.data.params).sort()).toEqual(['show_map', 'website', 'zip']);
  });
});
