import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { execFile } from 'node:child_process';
import { createTestApp, type TestApp } from '../support/create-test-app';
import { ProtectedController } from '../support/protected.controller';
import { createTestDatabase, type TestDatabase } from '../support/test-database';
import { basicAuth } from '../support/users';

interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

describe('user CLI (run as a child process against a real database)', () => {
  let database: TestDatabase;

  const cli = (...args: string[]): Promise<CliResult> =>
    new Promise((resolve) => {
      execFile(
        process.execPath,
        ['-r', 'ts-node/register/transpile-only', 'src/cli/main.ts', ...args],
        { env: { ...process.env, DATABASE_URL: database.url, LOG_LEVEL: 'silent' }, timeout: 60_000 },
        (error, stdout, stderr) => {
          const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
          resolve({ code, stdout, stderr });
        },
      );
    });

  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => {
    await database.drop();
  });

  it('creates users, issues a password that works over HTTP, lists and revokes it', async () => {
    const created = await cli('user:create', 'Carla', '--role', 'editor', '--email', 'carla@example.org', '--json');
    expect(created.code).toBe(0);
    expect(JSON.parse(created.stdout)).toMatchObject({ login: 'carla', role: 'editor', email: 'carla@example.org' });

    const plain = await cli('user:create', 'dan', '--role', 'author');
    expect(plain).toMatchObject({
      code: 0,
      stdout: expect.stringMatching(/^created user dan \(id \d+, role author\)/),
    });

    const issued = await cli('password:issue', 'carla', '--name', 'ci', '--json');
    expect(issued.code).toBe(0);
    const { id, password } = JSON.parse(issued.stdout) as { id: string; password: string };
    expect(password).toMatch(/^([A-Za-z0-9]{4} ){5}[A-Za-z0-9]{4}$/);

    const t: TestApp = await createTestApp({
      controllers: [ProtectedController],
      database,
      env: { AUTH_CACHE_SECONDS: '1' },
    });
    try {
      const auth = basicAuth('carla', password);
      await t.http.post('/cal/events/v1/test-protected/terms').set('Authorization', auth).send({ n: 1 }).expect(201);

      const listed = await cli('password:list', 'carla', '--json');
      expect(JSON.parse(listed.stdout)).toEqual([
        expect.objectContaining({ id, name: 'ci', last_used_utc: expect.stringMatching(/^\d{4}-/) }),
      ]);
      expect(listed.stdout).not.toContain(password);

      const revoked = await cli('password:revoke', 'carla', id);
      expect(revoked).toMatchObject({ code: 0, stdout: expect.stringContaining(`revoked application password ${id}`) });
      // The app caches verified credentials for AUTH_CACHE_SECONDS; another process's revocation shows after that.
      await new Promise((r) => setTimeout(r, 1_500));
      await t.http.post('/cal/events/v1/test-protected/terms').set('Authorization', auth).send({ n: 1 }).expect(401);
    } finally {
      await t.close();
    }
  });

  it('changes roles and lists users in plain text and JSON', async () => {
    expect((await cli('user:set-role', 'dan', 'contributor')).stdout).toBe('dan is now contributor\n');
    const listed = await cli('user:list', '--json');
    expect(JSON.parse(listed.stdout).map((u: { login: string; role: string }) => [u.login, u.role])).toEqual([
      ['carla', 'editor'],
      ['dan', 'contributor'],
    ]);
    expect((await cli('user:list')).stdout).toMatch(/\tdan\tcontributor\t/);
  });

  it('explains bad input and exits non-zero', async () => {
    const badRole = await cli('user:create', 'eve', '--role', 'wizard');
    expect(badRole.code).toBe(1);
    expect(badRole.stderr).toMatch(/role "wizard" is not one of/);

    const duplicate = await cli('user:create', 'carla', '--role', 'editor', '--json');
    expect(duplicate.code).toBe(1);
    expect(JSON.parse(duplicate.stderr)).toEqual({ error: 'user "carla" already exists' });

    const unknownUser = await cli('password:issue', 'nobody');
    expect(unknownUser).toMatchObject({ code: 1, stderr: expect.stringContaining('no user "nobody"') });

    const badEmail = await cli('user:create', 'frank', '--role', 'author', '--email', 'not-an-email');
    expect(badEmail.code).toBe(1);

    const unknownCommand = await cli('user:delete', 'carla');
    expect(unknownCommand.code).toBe(2);
    expect(unknownCommand.stderr).toMatch(/unknown command/);

    const missingRole = await cli('user:create', 'gina');
    expect(missingRole.code).toBe(2);
    expect(missingRole.stderr).toMatch(/--role/);
  });
});
