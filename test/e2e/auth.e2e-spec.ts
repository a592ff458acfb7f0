import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { AdminBootstrap, BOOTSTRAP_PASSWORD_NAME } from '../../src/auth/admin-bootstrap';
import { ApplicationPasswordsService } from '../../src/auth/application-passwords.service';
import type { Role } from '../../src/auth/roles';
import { UsersService } from '../../src/auth/users.service';
import { createTestApp, type TestApp } from '../support/create-test-app';
import { ProtectedController } from '../support/protected.controller';
import { createTestDatabase, type TestDatabase } from '../support/test-database';
import { basicAuth, createUser, createUsersForAllRoles, type TestUser } from '../support/users';

describe('authentication and capabilities', () => {
  let t: TestApp;
  let users: Record<Role, TestUser>;

  beforeAll(async () => {
    t = await createTestApp({ controllers: [ProtectedController] });
    users = await createUsersForAllRoles(t);
  });
  afterAll(async () => {
    await t.close();
  });

  it('treats a request without credentials as anonymous', async () => {
    const res = await t.http.get('/cal/events/v1/test-protected/whoami').expect(200);
    expect(res.body).toEqual({ login: null });
  });

  it('authenticates an application password with or without its spaces', async () => {
    const u = users.editor;
    const spaced = await t.http.get('/cal/events/v1/test-protected/whoami').set('Authorization', u.auth).expect(200);
    expect(spaced.body.login).toBe(u.login);
    const compact = basicAuth(u.login.toUpperCase(), u.password.replace(/ /g, ''));
    const res = await t.http.get('/cal/events/v1/test-protected/whoami').set('Authorization', compact).expect(200);
    expect(res.body.login).toBe(u.login);
  });

  it.each([
    ['a wrong password', () => basicAuth(users.editor.login, 'wrong wrong wrong')],
    ['an unknown login', () => basicAuth('nobody', 'abcd efgh ijkl mnop qrst uvwx')],
    ['a malformed header', () => 'Basic %%%'],
    ['another scheme', () => 'Bearer abc'],
  ])('answers %s with 401 rest_forbidden, never anonymous', async (_label, header) => {
    const res = await t.http.get('/cal/events/v1/test-protected/whoami').set('Authorization', header()).expect(401);
    expect(res.body.code).toBe('rest_forbidden');
    expect(res.body.data.status).toBe(401);
    // Says the credentials were wrong (not that none came), and how to send them.
    expect(res.body.message).toMatch(/^The login or application password is wrong/);
    expect(res.headers['www-authenticate']).toBe('Basic realm="cal/events/v1", charset="UTF-8"');
  });

  it('answers anonymous writers 401, naming the scheme that would pass', async () => {
    const res = await t.http.post('/cal/events/v1/test-protected/posts').send({ n: 1 }).expect(401);
    expect(res.body.code).toBe('rest_forbidden');
    expect(res.body.message).toBe('Sorry, you are not allowed to do that without logging in.');
    expect(res.headers['www-authenticate']).toBe('Basic realm="cal/events/v1", charset="UTF-8"');
  });

  it('validates parameters before permissions, even for anonymous callers', async () => {
    const res = await t.http.post('/cal/events/v1/test-protected/posts').send({ n: 'x' }).expect(400);
    expect(res.body.code).toBe('rest_invalid_param');
    const missing = await t.http
      .post('/cal/events/v1/test-protected/terms')
      .set('Authorization', users.subscriber.auth)
      .send({});
    expect(missing.status).toBe(400);
    expect(missing.body.code).toBe('rest_missing_callback_param');
  });

  it.each([
    ['administrator', 201, 201],
    ['editor', 201, 201],
    ['author', 201, 403],
    ['contributor', 201, 403],
    ['subscriber', 403, 403],
  ] as const)('%s: edit_posts → %i, manage_categories → %i', async (role, postStatus, termStatus) => {
    const auth = users[role].auth;
    const post = await t.http.post('/cal/events/v1/test-protected/posts').set('Authorization', auth).send({ n: 1 });
    expect(post.status).toBe(postStatus);
    if (postStatus === 201) expect(post.body).toEqual({ n: 1, by: users[role].login });
    else expect(post.body).toMatchObject({ code: 'rest_forbidden', data: { status: 403 } });
    const term = await t.http.post('/cal/events/v1/test-protected/terms').set('Authorization', auth).send({ n: 2 });
    expect(term.status).toBe(termStatus);
  });

  it('stops accepting a revoked password', async () => {
    const u = await createUser(t, 'editor');
    await t.http.get('/cal/events/v1/test-protected/whoami').set('Authorization', u.auth).expect(200);
    await t.app.get(ApplicationPasswordsService).revoke(u.id, u.passwordId);
    await t.http.get('/cal/events/v1/test-protected/whoami').set('Authorization', u.auth).expect(401);
  });

  it('follows a role change at once', async () => {
    const u = await createUser(t, 'editor');
    await t.http.post('/cal/events/v1/test-protected/terms').set('Authorization', u.auth).send({ n: 1 }).expect(201);
    await t.app.get(UsersService).setRole(u.login, 'author');
    await t.http.post('/cal/events/v1/test-protected/terms').set('Authorization', u.auth).send({ n: 1 }).expect(403);
  });

  it('records when a password was last used', async () => {
    const u = await createUser(t, 'author');
    await t.http.get('/cal/events/v1/test-protected/whoami').set('Authorization', u.auth).expect(200);
    const [row] = await t.app.get(ApplicationPasswordsService).list(u.id);
    expect(row.lastUsedUtc).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    expect(row.lastIp).toBeTruthy();
  });
});

describe('brute-force protection', () => {
  let t: TestApp;
  const whoami = '/cal/events/v1/test-protected/whoami';
  const from = (address: string, authorization: string) =>
    t.http.get(whoami).set('X-Forwarded-For', address).set('Authorization', authorization);

  beforeAll(async () => {
    t = await createTestApp({
      controllers: [ProtectedController],
      env: { AUTH_FAILURE_LIMIT: '3', AUTH_LOGIN_FAILURE_LIMIT: '5', TRUST_PROXY: 'true' },
    });
  });
  afterAll(async () => {
    await t.close();
  });

  it('locks the attacking address out, even with the right password, but not the owner elsewhere', async () => {
    const admin = await createUser(t, 'administrator');
    const wrong = basicAuth(admin.login, 'nope nope nope');
    for (let i = 0; i < 3; i++) await from('203.0.113.1', wrong).expect(401);
    const blocked = await from('203.0.113.1', admin.auth).expect(429);
    expect(blocked.body.code).toBe('rest_too_many_requests');
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
    expect((await from('198.51.100.7', admin.auth).expect(200)).body.login).toBe(admin.login);
    await t.http.get(whoami).set('X-Forwarded-For', '203.0.113.1').expect(200);
  });

  it("never blocks a login behind a shared address because of another login's failures", async () => {
    const careless = await createUser(t, 'author');
    const colleague = await createUser(t, 'editor');
    for (let i = 0; i < 3; i++) await from('192.0.2.50', basicAuth(careless.login, 'typo typo')).expect(401);
    await from('192.0.2.50', careless.auth).expect(429);
    expect((await from('192.0.2.50', colleague.auth).expect(200)).body.login).toBe(colleague.login);
  });

  it('under a spread attack locks each failing address at once, while the owner still logs in', async () => {
    const target = await createUser(t, 'editor');
    const wrong = basicAuth(target.login, 'guess guess');
    for (let i = 1; i <= 6; i++) await from(`203.0.113.${100 + i}`, wrong).expect(401);
    // The login is now under attack: a new address gets one miss, then is locked.
    await from('203.0.113.200', wrong).expect(401);
    await from('203.0.113.200', target.auth).expect(429);
    expect((await from('198.51.100.99', target.auth).expect(200)).body.login).toBe(target.login);
  });

  it('answers an unknown login like a wrong password, and limits it the same way', async () => {
    const ghost = basicAuth('nobody-here', 'whatever whatever');
    for (let i = 0; i < 3; i++)
      expect((await from('203.0.113.77', ghost).expect(401)).body.code).toBe('rest_forbidden');
    await from('203.0.113.77', ghost).expect(429);
  });
});

describe('administrator bootstrap from the environment', () => {
  let database: TestDatabase;
  const env = { CAL_ADMIN_LOGIN: 'root-admin', CAL_ADMIN_PASSWORD: 'a long bootstrap secret' };

  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => {
    await database.drop();
  });

  it('creates the administrator once, with that application password', async () => {
    const first = await createTestApp({ controllers: [ProtectedController], database, env });
    try {
      const res = await first.http
        .post('/cal/events/v1/test-protected/terms')
        .set('Authorization', basicAuth('root-admin', 'a long bootstrap secret'))
        .send({ n: 1 })
        .expect(201);
      expect(res.body).toEqual({ n: 1 });
      const admin = await first.app.get(UsersService).findByLogin('root-admin');
      expect(admin?.role).toBe('administrator');
      await first.app.get(UsersService).setRole('root-admin', 'editor');
    } finally {
      await first.close();
    }
    const second = await createTestApp({ controllers: [ProtectedController], database, env });
    try {
      const all = await second.app.get(UsersService).list();
      expect(all.map((u) => [u.login, u.role])).toEqual([['root-admin', 'editor']]);
      const admin = all[0];
      expect(await second.app.get(ApplicationPasswordsService).list(admin.id)).toHaveLength(1);
    } finally {
      await second.close();
    }
  });

  it('creates it once when a fleet starts at the same moment, and every instance lives', async () => {
    const fleetDatabase = await createTestDatabase();
    // The schema first, as a deployment's migration step or its first instance leaves it: what races then
    // is the bootstrap alone.
    await (await createTestApp({ database: fleetDatabase })).close();
    const fleet = await Promise.allSettled(
      [1, 2, 3, 4].map(() => createTestApp({ controllers: [ProtectedController], database: fleetDatabase, env })),
    );
    const started = fleet.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
    try {
      expect(fleet.map((r) => (r.status === 'rejected' ? String(r.reason) : 'started'))).toEqual([
        'started',
        'started',
        'started',
        'started',
      ]);
      const users = await started[0].app.get(UsersService).list();
      expect(users.map((u) => [u.login, u.role])).toEqual([['root-admin', 'administrator']]);
      const passwords = await started[0].app.get(ApplicationPasswordsService).list(users[0].id);
      expect(passwords.map((p) => p.name)).toEqual([BOOTSTRAP_PASSWORD_NAME]);
      const outcomes = started.map((t) => t.app.get(AdminBootstrap).outcome).sort();
      expect(outcomes).toEqual(['created', 'exists', 'exists', 'exists']);
      for (const t of started) {
        await t.http
          .post('/cal/events/v1/test-protected/terms')
          .set('Authorization', basicAuth('root-admin', 'a long bootstrap secret'))
          .send({ n: 2 })
          .expect(201);
      }
    } finally {
      for (const t of started) await t.close();
      await fleetDatabase.drop();
    }
  });
});
