import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildService, freePort, ServiceProcess } from '../support/service-process';
import { createTestDatabase, type TestDatabase } from '../support/test-database';
import { WebhookReceiver } from '../support/webhook-receiver';

const ns = '/cal/events/v1';
const root = process.cwd();
const onMysql = /^(mysql|mariadb):/.test(process.env.DATABASE_URL ?? '');
const ADMIN = { CAL_ADMIN_LOGIN: 'admin', CAL_ADMIN_PASSWORD: 'a long admin password' };
const auth = `Basic ${Buffer.from('admin:a long admin password').toString('base64')}`;

/** The service's CLI, compiled, as a deployment runs it. */
function cli(env: Record<string, string>, ...args: string[]) {
  const run = spawnSync(process.execPath, [join(root, 'dist', 'src', 'cli', 'main.js'), ...args], {
    env: { ...process.env, LOG_LEVEL: 'silent', ...env },
    encoding: 'utf8',
  });
  return { code: run.status, stdout: run.stdout, stderr: run.stderr };
}

/**
 * A team's package in a folder outside the project, as docs/extending.md tells a team to write it: its own
 * package.json and tsconfig.json (extending the service's), imports from `cal-events-service/extend` only, the
 * service linked rather than copied. Built with tsc against the compiled service, then loaded through
 * CAL_EXTENSIONS by the CLI, the compiled server (two workers on MySQL) and the separate webhook worker.
 */
describe('an extension package outside the project', () => {
  let folder: string;
  let extension: string;
  let database: TestDatabase;

  beforeAll(async () => {
    buildService();
    folder = mkdtempSync(join(tmpdir(), 'cal-team-'));
    cpSync(join(root, 'test', 'fixtures', 'extension-package'), folder, { recursive: true });
    // What `npm link cal-events-service` (or `npm install <path>`) makes: the running service, not a copy of it,
    // and the service's own Nest and TypeORM for the package's peer dependencies.
    mkdirSync(join(folder, 'node_modules'));
    symlinkSync(root, join(folder, 'node_modules', 'cal-events-service'), 'dir');
    for (const peer of ['@nestjs', 'typeorm', 'reflect-metadata'])
      symlinkSync(join(root, 'node_modules', peer), join(folder, 'node_modules', peer), 'dir');
    const tsc = spawnSync(process.execPath, [join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', folder], {
      encoding: 'utf8',
    });
    expect({ status: tsc.status, output: tsc.stdout + tsc.stderr }).toEqual({ status: 0, output: '' });
    extension = join(folder, 'dist', 'workshops.module.js');
    database = await createTestDatabase();
  });
  afterAll(async () => {
    await database?.drop();
    if (folder) rmSync(folder, { recursive: true, force: true });
  });

  it('applies its migration through the CLI, and lists it as unknown without the package', () => {
    const env = { DATABASE_URL: database.url, CAL_EXTENSIONS: extension };
    const shown = cli(env, 'migrations:show', '--json');
    expect(JSON.parse(shown.stdout)).toMatchObject({
      pending: expect.arrayContaining(['CreateAcmeSlots1795000000000']),
    });
    expect(cli(env, 'migrations:run').code).toBe(0);
    const bare = cli({ DATABASE_URL: database.url, CAL_EXTENSIONS: '' }, 'migrations:show', '--json');
    expect(JSON.parse(bare.stdout)).toMatchObject({ pending: [], unknown: ['CreateAcmeSlots1795000000000'] });
  });

  it('serves every piece from the compiled server, and the separate webhook worker delivers its members', async () => {
    const port = await freePort();
    const receiver = new WebhookReceiver();
    const hook = await receiver.start();
    const env = {
      DATABASE_URL: database.url,
      CAL_EXTENSIONS: extension,
      WEBHOOKS_ALLOW_PRIVATE: 'true',
      WEBHOOKS_WORKER: 'false',
      ...ADMIN,
    };
    const service = new ServiceProcess({
      ...env,
      PORT: String(port),
      HOST: '127.0.0.1',
      WEB_CONCURRENCY: onMysql ? '2' : '1',
    });
    const worker = spawn(process.execPath, [join(root, 'dist', 'src', 'cli', 'main.js'), 'webhooks:work'], {
      env: { ...process.env, ...env, LOG_LEVEL: 'silent', WEBHOOKS_POLL_SECONDS: '1' },
      stdio: 'ignore',
    });
    try {
      // Each worker logs its start, then the extensions it loaded: a line that may come after another's start.
      await service.until(
        (lines) =>
          lines.filter((l) => l.msg.includes(' listening on ')).length >= (onMysql ? 2 : 1) &&
          lines.some((l) => l.msg.startsWith('extensions loaded: ')),
      );
      const loaded = service.lines.find((l) => l.msg.startsWith('extensions loaded: '))?.msg ?? '';
      expect(loaded).toContain(`SlotsModule (${extension}): migrations CreateAcmeSlots1795000000000`);
      expect(loaded).toContain(`FormatsModule (${extension}): no migrations`);
      const origin = `http://127.0.0.1:${port}`;
      const call = async (method: string, path: string, body?: object, withAuth = true) => {
        const res = await fetch(`${origin}${ns}/${path}`, {
          method,
          headers: {
            ...(withAuth ? { Authorization: auth } : {}),
            'Content-Type': 'application/json',
            Connection: 'close',
          },
          ...(body ? { body: JSON.stringify(body) } : {}),
        });
        return { status: res.status, body: (await res.json()) as Record<string, unknown> };
      };
      expect((await call('POST', 'webhooks', { url: hook, events: ['event.created'] })).status).toBe(201);
      const created = await call('POST', 'events', {
        title: 'Workshop',
        start_date: '2031-09-01 10:00',
        end_date: '2031-09-01 12:00',
        formats: ['Hands-on'],
        level: 'advanced',
      });
      expect(created.status).toBe(201);
      const id = created.body.id as number;
      expect(created.body).toMatchObject({ level: 'advanced', formats: [{ name: 'Hands-on' }] });
      expect((await call('POST', `events/${id}/slots`, { title: 'Morning' })).status).toBe(201);
      const slots = await call('GET', `events/${id}/slots`, undefined, false);
      expect(slots.body).toMatchObject({ slots: [{ event_id: id, title: 'Morning' }] });
      const window = 'start_date=2031-09-01&end_date=2031-09-02';
      const found = async (query: string, withAuth: boolean) =>
        ((await call('GET', `events?${window}&${query}`, undefined, withAuth)).body.events as { id: number }[]).map(
          (e) => e.id,
        );
      expect(await found('formats=hands-on&level=advanced&mine=true', true)).toEqual([id]);
      expect(await found('level=beginner', true)).toEqual([]);
      expect(await found('mine=true', false)).toEqual([]);
      await receiver.receivedCount(1);
      expect(receiver.received[0].json).toMatchObject({
        type: 'event.created',
        data: { id, object: { level: 'advanced', formats: [{ name: 'Hands-on' }] } },
      });
      const level = await call('POST', `events/${id}`, { level: null });
      expect([level.status, level.body.level]).toEqual([200, null]);
    } finally {
      worker.kill('SIGTERM');
      service.child.kill('SIGTERM');
      await service.exited;
      await receiver.stop();
    }
  });
});
