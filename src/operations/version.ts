import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

let cached: string | undefined;

/**
 * The service's version from its package.json, found upwards from this file (src/ when run by ts-node
 * or the tests, dist/src/ when compiled, /app in the image).
 */
export function serviceVersion(): string {
  if (cached !== undefined) return cached;
  let dir = typeof __dirname === 'string' ? __dirname : process.cwd();
  for (;;) {
    const file = join(dir, 'package.json');
    if (existsSync(file)) {
      const pkg = JSON.parse(readFileSync(file, 'utf8')) as { name?: string; version?: string };
      if (pkg.name === 'cal-events-service' && pkg.version) return (cached = pkg.version);
    }
    const parent = dirname(dir);
    if (parent === dir) return (cached = 'unknown');
    dir = parent;
  }
}
