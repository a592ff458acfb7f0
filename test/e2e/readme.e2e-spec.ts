import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { buildService, freePort, ServiceProcess } from '../support/service-process';
import { createTestDatabase, type TestDatabase } from '../support/test-database';

const README = readFileSync('README.md', 'utf8');
const PRINTED_ORIGIN = 'http://localhost:3000';

/** The fenced `sh` blocks of the README section headed `heading`. */
function shellBlocks(heading: string): string[] {
  const start = README.indexOf(`\n## ${heading}\n`);
  if (start < 0) throw new Error(`README has no section "${heading}"`);
  const end = README.indexOf('\n## ', start + 1);
  const section = README.slice(start, end < 0 ? undefined : end);
  return [...section.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]);
}

/** `NAME=value NAME='quoted value' npm start` → its variables. */
function assignmentsOf(line: string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const m of line.matchAll(/([A-Z_]+)=(?:'([^']*)'|(\S+))/g)) env[m[1]] = m[2] ?? m[3];
  return env;
}

/**
 * Each `curl …` command of a block, with its continuation lines, after the block's lines before the first
 * curl (variables it sets: `DAY=$(…)`), as one script each.
 */
function commandsOf(block: string): string[] {
  const [setup, ...rest] = `\n${block}`.split(/\n(?=curl )/);
  return rest.map((c) => `${setup.trim()}\n${c.trim()}`.trim());
}

function shell(command: string): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) =>
    execFile('sh', ['-c', command], (error, stdout, stderr) =>
      resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    ),
  );
}

/**
 * The README's quick start, run as a new team would: the start line's settings on a fresh database, then
 * its curl lines exactly as printed (only the origin points at this test's port), and every link it
 * tells a reader to open.
 */
describe('README quick start', () => {
  let database: TestDatabase;
  let service: ServiceProcess;
  let origin: string;

  beforeAll(async () => {
    buildService();
    database = await createTestDatabase();
    const [start] = shellBlocks('Quick start');
    expect(start.trim()).toMatch(/ npm start$/);
    const port = await freePort();
    origin = `http://127.0.0.1:${port}`;
    service = new ServiceProcess({ ...assignmentsOf(start), DATABASE_URL: database.url, PORT: String(port) });
    await service.until(() => service.listening().length > 0);
  });
  afterAll(async () => {
    service?.child.kill('SIGTERM');
    await service?.exited;
    await database?.drop();
  });

  it('creates an event with the printed credentials, then lists it with the printed filters', async () => {
    const [, requests] = shellBlocks('Quick start');
    const commands = commandsOf(requests);
    expect(commands).toHaveLength(2);
    const outputs: unknown[] = [];
    for (const command of commands) {
      const result = await shell(command.replaceAll(PRINTED_ORIGIN, origin));
      // (curl's stderr is its progress meter, as a reader piping the answer would see it.)
      expect([command, result.code]).toEqual([command, 0]);
      outputs.push(JSON.parse(result.stdout));
    }
    const [event, list] = outputs as [Record<string, unknown>, { events: Record<string, unknown>[]; total: number }];
    expect(event).toMatchObject({ title: 'Jazz night', status: 'publish', timezone: 'Europe/Berlin' });
    expect(list.total).toBe(1);
    expect(list.events[0]).toMatchObject({ id: event.id, title: 'Jazz night' });
    // What the UI's "Try it out" on GET /events sends without a value filled in: the event is in it.
    const ui = (await (await fetch(`${origin}/cal/events/v1/events`)).json()) as { events: { id: number }[] };
    expect(ui.events.map((e) => e.id)).toContain(event.id);
    // So is the OpenAPI document's own example body, created through "Try it out" as it stands.
    const doc = (await (await fetch(`${origin}/cal/events/v1/doc`)).json()) as {
      paths: Record<string, Record<string, { requestBody?: { content: Record<string, { example?: unknown }> } }>>;
    };
    const example = doc.paths['/cal/events/v1/events'].post.requestBody!.content['application/json'].example;
    const created = await fetch(`${origin}/cal/events/v1/events`, {
      method: 'POST',
      headers: {
        authorization: `Basic ${Buffer.from('admin:choose a long secret').toString('base64')}`,
        'content-type': 'application/json',
      },
      body: JSON.stringify(example),
    });
    expect(created.status).toBe(201);
    const createdId = ((await created.json()) as { id: number }).id;
    const uiAfter = (await (await fetch(`${origin}/cal/events/v1/events`)).json()) as { events: { id: number }[] };
    expect(uiAfter.events.map((e) => e.id)).toContain(createdId);
  });

  it("runs docs/events.md's recurring example as printed, with the quick start's credentials", async () => {
    const events = readFileSync('docs/events.md', 'utf8');
    const block = [...events.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]).find((b) => b.includes('Yoga class'));
    const [command] = commandsOf(block!.split('\n\n')[0]);
    const result = await shell(command.replaceAll(PRINTED_ORIGIN, origin));
    expect([command, result.code]).toEqual([command, 0]);
    const created = JSON.parse(result.stdout) as { title: string; recurrence: string[]; status: string };
    expect(created).toMatchObject({ title: 'Yoga class', status: 'publish' });
    expect(created.recurrence[0]).toMatch(/^RRULE:FREQ=WEEKLY;BYDAY=TU/);
  });

  it('answers every link the README tells a reader to open', async () => {
    const links = [...new Set([...README.matchAll(/<(http:\/\/localhost:3000[^>]*)>/g)].map((m) => m[1]))];
    expect(links.length).toBeGreaterThan(4);
    for (const link of links) {
      const res = await fetch(link.replace(PRINTED_ORIGIN, origin));
      // /metrics is closed until METRICS_TOKEN is set, as the README says next to the link.
      const expected = link.endsWith('/metrics') ? 403 : 200;
      expect([link, res.status]).toEqual([link, expected]);
    }
  });
});
