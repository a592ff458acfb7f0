import type { TestApp } from './create-test-app';

/**
 * The SQL text of every statement TypeORM's query runners send while `work` runs (both databases: the
 * runners of one driver share a prototype). For tests that pin how many round trips a route costs.
 */
export async function captureStatements(t: TestApp, work: () => Promise<unknown>): Promise<string[]> {
  const runner = t.dataSource.createQueryRunner();
  const prototype = Object.getPrototypeOf(runner) as { query: (...args: unknown[]) => Promise<unknown> };
  await runner.release();
  const original = prototype.query;
  const statements: string[] = [];
  prototype.query = function (this: unknown, ...args: unknown[]) {
    statements.push(String(args[0]));
    return original.apply(this, args);
  };
  try {
    await work();
  } finally {
    prototype.query = original;
  }
  return statements;
}
