#!/usr/bin/env node
// Fails when a test binds a fixed port: two runs on one machine (two pipelines, a developer's own server)
// would then clash. Servers a test starts take a port the system picks (PORT=0, listen(0), `freePort()`),
// and retry on another when that one was taken meanwhile (test/support/own-mariadb.ts). Connections to
// the shared MariaDB (3306) and Redis (6379) are not binds and are not checked.
const { readdirSync, readFileSync, statSync } = require('node:fs');
const { join, relative } = require('node:path');

const root = join(__dirname, '..');
const RULES = [
  [/\.listen\(\s*([1-9]\d*)/, 'listens on a fixed port'],
  [/\bPORT\s*[:=]\s*['"`]?([1-9]\d*)/, 'starts the service on a fixed PORT'],
  [/--port=([1-9]\d*)\b/, 'starts a server on a fixed --port'],
  [
    /port[^\n]*process\.pid\s*%/i,
    'derives a port from the pid (it clashes with another run that has the same remainder)',
  ],
];

function walk(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? walk(path) : /\.(ts|js|cjs)$/.test(name) ? [path] : [];
  });
}

const problems = [];
for (const file of walk(join(root, 'test'))) {
  readFileSync(file, 'utf8')
    .split('\n')
    .forEach((text, i) => {
      if (/^\s*(\/\/|\*)/.test(text)) return;
      for (const [pattern, what] of RULES) {
        if (pattern.test(text)) problems.push(`${relative(root, file)}:${i + 1}: ${what}: ${text.trim()}`);
      }
    });
}
if (problems.length > 0) {
  process.stderr.write(`test ports: ${problems.length} fixed port(s)\n${problems.map((p) => `  ${p}`).join('\n')}\n`);
  process.exit(1);
}
process.stdout.write('test ports: every server a test starts takes a port the system picks\n');
