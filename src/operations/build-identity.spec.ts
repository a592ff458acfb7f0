import { describe, expect, it, beforeEach, afterEach } from '@jest/globals';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { identityOf } from './build-identity';

describe('build identity', () => {
  let root: string;
  const write = (path: string, text: string) => {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  };
  const build = () => identityOf(join(root, 'dist'), []);

  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'build-identity-'));
    write('dist/src/main.js', 'main();');
    write('dist/src/modules/events/event-cost.js', "exports.separator = ' – ';");
    write('dist/examples/tickets.module.js', 'tickets();');
    write('package-lock.json', '{"lockfileVersion":3}');
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('is the same for the same files, and moves with one character of any helper, however deep', () => {
    const before = build();
    expect(build()).toBe(before);
    write('dist/src/modules/events/event-cost.js', "exports.separator = ' - ';");
    expect(build()).not.toBe(before);
  });

  it('moves with an added or removed file, an example module and the installed dependencies', () => {
    const before = build();
    write('dist/src/modules/events/new-helper.js', '');
    const added = build();
    expect(added).not.toBe(before);
    rmSync(join(root, 'dist/src/modules/events/new-helper.js'));
    expect(build()).toBe(before);
    write('dist/examples/tickets.module.js', 'tickets(2);');
    expect(build()).not.toBe(before);
    write('dist/examples/tickets.module.js', 'tickets();');
    write('package-lock.json', '{"lockfileVersion":3,"packages":{"node_modules/luxon":{"version":"3.8.0"}}}');
    expect(build()).not.toBe(before);
  });

  it('takes npm’s record of the installed packages over the lockfile when there is one', () => {
    write('node_modules/.package-lock.json', '{"packages":{}}');
    const before = build();
    write('package-lock.json', '{"changed":true}');
    expect(build()).toBe(before);
    write('node_modules/.package-lock.json', '{"packages":{"node_modules/x":{}}}');
    expect(build()).not.toBe(before);
  });

  it('leaves out what never runs: source maps, declarations, dot files', () => {
    const before = build();
    write('dist/src/main.js.map', '{}');
    write('dist/src/main.d.ts', 'export {};');
    write('dist/src/.cache', 'x');
    expect(build()).toBe(before);
  });

  it("covers an extension module outside the build with its package's code, not its dependencies", () => {
    write('team/package.json', '{"name":"team-extension"}');
    write('team/dist/formats.module.js', 'formats();');
    write('team/dist/format-helper.js', 'helper(1);');
    write('team/node_modules/dep/index.js', 'dep(1);');
    const module = join(root, 'team/dist/formats.module.js');
    const alone = build();
    const withTeam = identityOf(join(root, 'dist'), [module]);
    expect(withTeam).not.toBe(alone);
    write('team/node_modules/dep/index.js', 'dep(2);');
    expect(identityOf(join(root, 'dist'), [module])).toBe(withTeam);
    write('team/dist/format-helper.js', 'helper(2);');
    expect(identityOf(join(root, 'dist'), [module])).not.toBe(withTeam);
    // An extension inside the build is covered by the build already.
    expect(identityOf(join(root, 'dist'), [join(root, 'dist/examples/tickets.module.js')])).toBe(alone);
  });
});
