import type { Dialect } from '../../src/common/http/request-context';
import { documentFills } from '../../src/modules/events/derived/documents/document-fills';
import { EventDocuments } from '../../src/modules/events/derived/documents/event-documents.service';
import type { TestApp } from './create-test-app';

/**
 * The SQL text of every statement TypeORM's query runners send while `work` runs (both databases: the
 * runners of one driver share a prototype), except those of the event documents' background fill, which
 * a read sets off beside its answer. For tests that pin how many round trips a route costs.
 */
export async function captureStatements(t: TestApp, work: () => Promise<unknown>): Promise<string[]> {
  const runner = t.dataSource.createQueryRunner();
  const prototype = Object.getPrototypeOf(runner) as { query: (...args: unknown[]) => Promise<unknown> };
  await runner.release();
  const original = prototype.query;
  const statements: string[] = [];
  prototype.query = function (this: unknown, ...args: unknown[]) {
    if (!documentFills.getStore()) statements.push(String(args[0]));
    return original.apply(this, args);
  };
  try {
    await work();
  } finally {
    prototype.query = original;
  }
  return statements;
}

/** Waits until the event documents that reads asked for are built (the app may have left them out). */
export async function documentsSettled(t: TestApp): Promise<void> {
  await t.app.get(EventDocuments, { strict: false }).settled();
}

/** `value` with the test server's ephemeral port left out (supertest listens anew for each request). */
export function withoutPort<T>(value: T): T {
  return JSON.parse(JSON.stringify(value).replace(/127\.0\.0\.1:\d+/g, '127.0.0.1')) as T;
}

/** The bodies of event `id`'s document that `t`'s build stored for the event as it is now; null when none. */
export async function storedBody(
  t: TestApp,
  id: number,
  dialect: Dialect = 'cal',
): Promise<{ body: string; jsonLd: string; until: string | null } | null> {
  const [row] = await t.dataSource.query<{ body: string; json_ld: string; until: string | null }[]>(
    `SELECT b.object_json AS body, b.json_ld AS json_ld, b.valid_until_utc AS until
       FROM event_documents d
      INNER JOIN event_document_bodies b ON b.post_id = d.post_id AND b.generation = d.generation AND b.format = ?
      WHERE d.post_id = ?`,
    [t.app.get(EventDocuments, { strict: false }).formatOf(dialect), id],
  );
  return row ? { body: row.body, jsonLd: row.json_ld, until: row.until } : null;
}
