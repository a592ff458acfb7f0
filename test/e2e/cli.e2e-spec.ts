import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdtempSync } from 'node:fs';
import { PassThrough } from 'node:stream';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../../src/cli/run-cli';
import { CapturedStream } from '../support/captured-stream';
import { createTestApp, type TestApp } from '../support/create-test-app';
import { ProtectedController } from '../support/protected.controller';
import { createTestDatabase, type TestDatabase } from '../support/test-database';
import { documentsSettled } from '../support/statements';
import { basicAuth, createUser } from '../support/users';

/** No terminal (as in CI), or a terminal on which `typed` is typed. */
function input(typed?: string): NodeJS.ReadStream {
  const stream = Object.assign(new PassThrough(), { isTTY: typed !== undefined });
  stream.end(typed ?? '');
  return stream as unknown as NodeJS.ReadStream;
}

interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** The CLI through its one entry point (`runCli`, which `dist/src/cli/main.js` calls), in-process. */
async function cliOn(databaseUrl: string, args: string[], typed?: string): Promise<CliResult> {
  const stdout = new CapturedStream();
  const stderr = new CapturedStream();
  const code = await runCli(['node', 'cli', ...args], {
    stdout: stdout.asWriteStream(),
    stderr: stderr.asWriteStream(),
    stdin: input(typed),
    overrides: { DATABASE_URL: databaseUrl, LOG_LEVEL: 'silent' },
  });
  return { code, stdout: stdout.text, stderr: stderr.text };
}

describe('user CLI against a real database', () => {
  let database: TestDatabase;

  const cli = (...args: string[]): Promise<CliResult> => cliOn(database.url, args);

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
      env: { AUTH_CACHE_SECONDS: '0' },
    });
    try {
      const auth = basicAuth('carla', password);
      await t.http.post('/cal/events/v1/test-protected/terms').set('Authorization', auth).send({ n: 1 }).expect(201);

      const listed = await cli('password:list', 'carla', '--json');
      expect(JSON.parse(listed.stdout)).toEqual([
        expect.objectContaining({ id, name: 'ci', last_used_utc: expect.stringMatching(/^\d{4}-/) }),
      ]);
      expect(listed.stdout).not.toContain(password);

      // Without a terminal to ask on it names the password and refuses; on one, a typed "yes" revokes it.
      const unconfirmed = await cli('password:revoke', 'carla', id);
      expect(unconfirmed.code).toBe(1);
      expect(unconfirmed.stdout).toContain('nothing revoked');
      expect(unconfirmed.stdout).toContain('the application password "ci" of carla');
      await t.http.post('/cal/events/v1/test-protected/terms').set('Authorization', auth).send({ n: 1 }).expect(201);
      const declined = await cliOn(database.url, ['password:revoke', 'carla', id], 'no\n');
      expect(declined.code).toBe(1);
      expect(declined.stderr).toContain('Type "yes" to go on');
      const revoked = await cliOn(database.url, ['password:revoke', 'carla', id], 'yes\n');
      expect(revoked).toMatchObject({ code: 0, stdout: expect.stringContaining(`revoked application password ${id}`) });
      // With AUTH_CACHE_SECONDS=0 the app verifies every request, so the revocation shows at once.
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

describe('schema CLI (migrations:show|run|revert)', () => {
  let database: TestDatabase;
  const cli = (...args: string[]): Promise<CliResult> => cliOn(database.url, args);

  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => {
    await database.drop();
  });

  it('shows pending migrations with exit code 3, applies them, reverts and re-applies', async () => {
    const fresh = await cli('migrations:show', '--json');
    expect(fresh.code).toBe(3);
    const { applied, pending } = JSON.parse(fresh.stdout) as { applied: string[]; pending: string[] };
    expect(applied).toEqual([]);
    expect(pending).toEqual(
      expect.arrayContaining(['CreatePostsAndTerms1763600000000', 'CreateVenueGeo1764200000000']),
    );

    const run = await cli('migrations:run');
    expect(run).toMatchObject({
      code: 0,
      stdout: `applied ${pending.length} migration(s); filled derived data: event-search-words\n`,
    });
    // Progress goes to stderr as plain lines (no terminal here), ending with the total.
    expect(run.stderr).toContain(`applying migrations: ${pending.length}/${pending.length} in`);
    expect(run.stderr).not.toContain('\r');

    const current = await cli('migrations:show', '--json');
    expect(current.code).toBe(0);
    expect(JSON.parse(current.stdout)).toEqual({ applied: pending, pending: [], unknown: [] });
    expect((await cli('migrations:run')).stdout).toBe('schema is up to date\n');

    // One migration too: named with what its down() drops, asked first, refused without a terminal.
    const newest = pending[pending.length - 1];
    const unasked = await cli('migrations:revert', '--json');
    expect(unasked.code).toBe(1);
    expect(JSON.parse(unasked.stdout)).toMatchObject({
      reverted: [],
      would_revert: [
        { migration: newest, undoes: expect.arrayContaining([expect.stringMatching(/^(table|column) /)]) },
      ],
    });
    const said = await cli('migrations:revert');
    expect(said.stdout).toContain(`nothing reverted. migrations:revert reverts 1 migration(s)`);
    expect(said.stdout).toContain(`  ${newest}:\n    - `);
    expect(JSON.parse((await cli('migrations:show', '--json')).stdout).pending).toEqual([]);
    const reverted = await cliOn(database.url, ['migrations:revert', '--json'], 'yes\n');
    expect(JSON.parse(reverted.stdout)).toEqual({ reverted: [newest] });
    expect(JSON.parse((await cli('migrations:show', '--json')).stdout).pending).toEqual([pending[pending.length - 1]]);

    // Reverting everything empties the database: without a terminal it needs --yes, on one a typed "yes".
    const unconfirmed = await cli('migrations:revert', '--all');
    expect(unconfirmed.code).toBe(1);
    expect(unconfirmed.stdout).toContain(
      `nothing reverted. migrations:revert --all reverts ${pending.length - 1} migration(s)`,
    );
    expect(unconfirmed.stdout).toContain('- table posts and all its rows');
    expect(unconfirmed.stdout).toContain('Confirm on a terminal, or add --yes.');
    const declined = await cliOn(database.url, ['migrations:revert', '--all'], 'no\n');
    expect(declined.code).toBe(1);
    expect(declined.stderr).toContain(`reverts ${pending.length - 1} migration(s), newest first, and undoes:`);
    expect(JSON.parse((await cli('migrations:show', '--json')).stdout).applied).toHaveLength(pending.length - 1);
    const typedYes = await cliOn(database.url, ['migrations:revert', '--all', '--json'], 'yes\n');
    expect(JSON.parse(typedYes.stdout).reverted).toHaveLength(pending.length - 1);
    expect((await cli('migrations:run')).code).toBe(0);

    const all = await cli('migrations:revert', '--all', '--yes', '--json');
    expect(JSON.parse(all.stdout).reverted).toHaveLength(pending.length);
    expect((await cli('migrations:run')).code).toBe(0);
    // The users commands work on the schema the CLI made.
    expect((await cli('user:create', 'zoe', '--role', 'author')).code).toBe(0);
  });

  it('refuses a database URL it cannot use, with a message and exit code 1', async () => {
    const refused = await cliOn('postgres://somewhere/db', ['migrations:show']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(
      /^error: Invalid configuration:\n {2}DATABASE_URL="postgres:\/\/somewhere\/db": must be/,
    );
    const folder = await cliOn(`sqlite:${mkdtempSync(join(tmpdir(), 'cal-folder-'))}`, ['migrations:show']);
    expect(folder.code).toBe(1);
    expect(folder.stderr).toMatch(/^error: unable to open database file: .*must be a file/);
  });
});

describe('derived:rebuild', () => {
  let t: TestApp;
  afterAll(() => t.close());

  it('rebuilds the listing counts, the search index and the event documents after rows were edited by hand', async () => {
    // No response cache: the reads below must see the rebuilt tables, not answers from before.
    t = await createTestApp({ now: new Date('2030-03-01T12:00:00Z'), env: { RESPONSE_CACHE_MB: '0' } });
    const admin = (await createUser(t, 'administrator')).auth;
    const window = 'start_date=2030-03-01&end_date=2030-12-31';
    for (const title of ['Jazz one', 'Jazz two', 'Opera']) {
      await t.http
        .post('/cal/events/v1/events')
        .set('Authorization', admin)
        .send({ title, start_date: '2030-05-01 19:00:00', end_date: '2030-05-01 22:00:00' })
        .expect(201);
    }
    const total = async (query: string) =>
      Number((await t.http.get(`/cal/events/v1/events?${window}&${query}`)).headers['x-tec-total'] ?? 0);
    expect(await total('search=jazz')).toBe(2);
    const titles = async () =>
      ((await t.http.get(`/cal/events/v1/events?${window}`)).body.events as { title: string }[]).map((e) => e.title);
    expect(await titles()).toEqual(['Jazz one', 'Jazz two', 'Opera']);
    await documentsSettled(t);
    await t.dataSource.query("UPDATE posts SET title = 'Blues night' WHERE title = 'Jazz two'");
    await t.dataSource.query("UPDATE posts SET status = 'draft' WHERE title = 'Opera'");
    // Hand edits bypass what the service keeps in step: the index and the counts are stale.
    expect(await total('search=jazz')).toBe(2);
    expect(await total('search=blues')).toBe(0);
    expect(await total('per_page=10')).toBe(3);
    // And the event documents still hold the old title.
    expect(await titles()).toContain('Jazz two');

    const rebuilt = await cliOn(t.database.url, ['derived:rebuild', '--json']);
    expect(rebuilt.code).toBe(0);
    // Words: "jazz", "one", "blues", "night", "opera" (the draft is indexed, found only by editors).
    expect(JSON.parse(rebuilt.stdout)).toEqual({ searchWords: 5, stores: ['event-search-words'] });
    expect(await total('search=jazz')).toBe(1);
    expect(await total('search=blues')).toBe(1);
    expect(await total('per_page=10')).toBe(2);
    expect(await titles()).toEqual(['Jazz one', 'Blues night']);
  });
});
