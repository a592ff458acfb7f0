import { createRequire } from 'node:module';
import { join } from 'node:path';

/**
 * better-sqlite3 12 is the last line that builds on Node 20 but aborts on recent Node 24; 13 fixes that
 * and needs Node 22. Both are installed (13 as the optional `better-sqlite3-13`, which npm skips on
 * Node 20), and this picks the one made for the running Node.
 */
export interface SqliteDriverChoice {
  packageName: 'better-sqlite3' | 'better-sqlite3-13';
  driver: unknown;
}

// The service is CommonJS; the tests run it as ES modules from the project root, where there is no __filename.
const requireHere = createRequire(typeof __filename === 'string' ? __filename : join(process.cwd(), 'index.js'));

export function preferredSqlitePackages(nodeVersion: string): SqliteDriverChoice['packageName'][] {
  const major = Number(nodeVersion.replace(/^v/, '').split('.')[0]);
  return major >= 22 ? ['better-sqlite3-13', 'better-sqlite3'] : ['better-sqlite3'];
}

export function loadSqliteDriver(
  nodeVersion: string = process.version,
  load: (name: string) => unknown = requireHere,
): SqliteDriverChoice {
  const candidates = preferredSqlitePackages(nodeVersion);
  const failures: string[] = [];
  for (const packageName of candidates) {
    try {
      return { packageName, driver: load(packageName) };
    } catch (error) {
      failures.push(`${packageName}: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`);
    }
  }
  throw new Error(
    `No SQLite driver loads on Node ${nodeVersion} (${failures.join('; ')}). Run \`npm ci\` with this Node, ` +
      'or set DATABASE_URL to a MySQL database.',
  );
}
