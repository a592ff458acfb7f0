import { beforeAll, describe, expect, it } from '@jest/globals';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { KNOWN_VARIABLES } from '../../src/config/variable-names';
import { buildService } from '../support/service-process';

const check = (root?: string) =>
  spawnSync(process.execPath, [join(process.cwd(), 'scripts', 'check-docs.cjs'), ...(root ? [root] : [])], {
    encoding: 'utf8',
  });

/** `npm run lint`'s docs check: what the docs point at exists, and the settings they name are the service's. */
describe('docs check', () => {
  beforeAll(() => buildService());

  it("passes on this repository's own docs", () => {
    const result = check();
    expect([result.status, result.stderr]).toEqual([0, '']);
  });

  it('finds dead links and anchors, missing files, scripts and settings, in both directions', () => {
    const root = mkdtempSync(join(tmpdir(), 'cal-docs-'));
    mkdirSync(join(root, 'docs'));
    writeFileSync(join(root, 'package.json'), JSON.stringify({ scripts: { start: 'node x' } }));
    const documented = KNOWN_VARIABLES.filter((name) => name !== 'PORT');
    writeFileSync(join(root, 'docs', 'configuration.md'), documented.map((n) => `\`${n}\``).join('\n'));
    writeFileSync(join(root, 'docs', 'ops.md'), '# Ops\n\n## Backups\n');
    writeFileSync(
      join(root, '.env.example'),
      [...KNOWN_VARIABLES.filter((name) => name !== 'HOST'), 'OLD_SETTING'].map((n) => `${n}=`).join('\n'),
    );
    writeFileSync(
      join(root, 'README.md'),
      [
        'See [backups](docs/ops.md#backups), [restores](docs/ops.md#restores) and [gone](docs/gone.md).',
        'The code is in `src/nowhere.ts`; behaviour.md says so.',
        '| `LIST_TOTALS_CACHE_SECONDS` | 5 | removed |',
        'Set `DATABSE_URL=mysql://db` and run `npm run fuzz`.',
      ].join('\n'),
    );
    const result = check(root);
    expect(result.status).toBe(1);
    const lines = result.stderr.split('\n').map((l) => l.trim());
    expect(lines).toEqual(
      expect.arrayContaining([
        'README.md:1: link to docs/ops.md#restores: no heading #restores in docs/ops.md',
        'README.md:1: link to docs/gone.md: no such file',
        'README.md:2: cites src/nowhere.ts, which is not in the repository',
        'README.md:2: cites behaviour.md, which is not in the repository',
        'README.md:3: lists LIST_TOTALS_CACHE_SECONDS, not a setting',
        'README.md:4: names DATABSE_URL, not a setting (DATABASE_URL?)',
        'README.md:4: npm run fuzz: no such script in package.json',
        'docs/configuration.md: PORT is a setting but not documented',
        '.env.example: HOST is a setting but not listed',
        '.env.example: OLD_SETTING is not a setting of the service',
      ]),
    );
    expect(lines.filter((l) => l.includes('docs/ops.md#backups'))).toEqual([]);
  });
});
