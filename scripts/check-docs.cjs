#!/usr/bin/env node
// The docs check of `npm run lint`: what README.md and docs/ point at must exist. Relative links (and their
// anchors), cited files, `npm run` scripts, and settings: every variable the docs name is one the service
// reads, and every one it reads is documented (docs/configuration.md) and listed in .env.example.
// Reads the settings from the compiled config (dist/, built first when stale).
const { existsSync, readFileSync, readdirSync, statSync } = require('node:fs');
const { basename, dirname, join, relative } = require('node:path');

const project = join(__dirname, '..');
/** The tree to check: this project, or another one named on the command line (the check's own test). */
const root = process.argv[2] ?? project;
const { KNOWN_VARIABLES, lookalikeVariables } = require(join(project, 'dist', 'src', 'config', 'variable-names.js'));

/** The project's own docs; docs/spec/ holds the product's specification as written, not checked here. */
function docFiles() {
  const docs = readdirSync(join(root, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => join('docs', f));
  return ['README.md', ...docs];
}

function walk(dir, out = []) {
  for (const name of readdirSync(join(root, dir))) {
    if (['node_modules', 'dist', '.git', 'data', 'coverage', 'tmp'].includes(name)) continue;
    const path = dir === '.' ? name : join(dir, name);
    if (statSync(join(root, path)).isDirectory()) walk(path, out);
    else out.push(path);
  }
  return out;
}

const tracked = walk('.');
const hasNodeModule = (name) => existsSync(join(project, 'node_modules', name));
const basenames = new Set(tracked.map((f) => basename(f)));
const scripts = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).scripts;
const known = new Set(KNOWN_VARIABLES);
const problems = [];
const report = (file, line, text) => problems.push(`${file}:${line}: ${text}`);

/** GitHub's anchor of a heading: lower case, punctuation but `-` and `_` dropped, spaces to hyphens. */
const slug = (heading) =>
  heading
    .trim()
    .toLowerCase()
    .replace(/[`*]/g, '')
    .replace(/[^\p{L}\p{N}_ -]/gu, '')
    .replace(/ /g, '-');
const anchorsOf = (file) =>
  new Set(
    readFileSync(join(root, file), 'utf8')
      .split('\n')
      .filter((l) => /^#{1,6} /.test(l))
      .map((l) => slug(l.replace(/^#+ /, ''))),
  );

function citedFileExists(doc, token) {
  if (token.includes('/')) {
    return [token, join(dirname(doc), token), join('src', token)].some((p) => existsSync(join(root, p)));
  }
  return basenames.has(token);
}

const PATHLIKE = /^[\w.@/-]+\.(ts|md|js|cjs|json|ya?ml|sh)$|^(src|test|docs|bench|scripts|\.ci)\/[\w./-]*$/;
const VARIABLE = /^([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+)(=.*)?$/;

for (const doc of docFiles()) {
  const lines = readFileSync(join(root, doc), 'utf8').split('\n');
  const tableOfSettings = doc === 'README.md' || doc === join('docs', 'configuration.md');
  lines.forEach((text, i) => {
    const line = i + 1;
    for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
      if (/^(https?:|mailto:)/.test(target)) continue;
      const [path, anchor] = target.split('#');
      const file = path === '' ? doc : join(dirname(doc), path);
      if (!existsSync(join(root, file))) report(doc, line, `link to ${target}: no such file`);
      else if (anchor && file.endsWith('.md') && !anchorsOf(file).has(anchor)) {
        report(doc, line, `link to ${target}: no heading #${anchor} in ${relative(root, join(root, file))}`);
      }
    }
    for (const [, raw] of text.matchAll(/`([^`]+)`/g)) {
      const token = raw.trim().replace(/[),.:;]+$/, '');
      if (PATHLIKE.test(token) && !/^(res|req)\./.test(token) && !hasNodeModule(token)) {
        if (!citedFileExists(doc, token)) report(doc, line, `cites ${token}, which is not in the repository`);
      }
      for (const word of token.split(/\s+/)) {
        const m = VARIABLE.exec(word);
        if (!m || known.has(m[1])) continue;
        const [lookalike] = lookalikeVariables({ [m[1]]: 'x' });
        if (lookalike)
          report(doc, line, `names ${m[1]}, not a setting${lookalike.meant ? ` (${lookalike.meant}?)` : ''}`);
        else if (tableOfSettings && text.startsWith(`| \`${m[1]}\``)) report(doc, line, `lists ${m[1]}, not a setting`);
      }
    }
    for (const [, name] of text.matchAll(/(?<![`\w])([\w-]+\.md)\b/g)) {
      if (!basenames.has(name)) report(doc, line, `cites ${name}, which is not in the repository`);
    }
    // The API takes HTTP Basic with an application password; nothing issues bearer tokens (but /metrics's).
    if (/^\s*curl\b/.test(text) && /Authorization: Bearer/i.test(text) && !text.includes('/metrics')) {
      report(doc, line, "curl sends a bearer token, which the API does not take: use -u 'login:application password'");
    }
    // (`npm run bench:*` names a family of scripts.)
    for (const [, script] of text.matchAll(/npm run ([\w:-]*[\w-])(?![\w:*-])/g)) {
      if (!(script in scripts)) report(doc, line, `npm run ${script}: no such script in package.json`);
    }
  });
}

const configuration = readFileSync(join(root, 'docs', 'configuration.md'), 'utf8');
const envExample = readFileSync(join(root, '.env.example'), 'utf8');
const exampleNames = new Set([...envExample.matchAll(/^#?\s*([A-Z][A-Z0-9_]+)=/gm)].map((m) => m[1]));
for (const name of KNOWN_VARIABLES) {
  if (!configuration.includes(`\`${name}\``))
    problems.push(`docs/configuration.md: ${name} is a setting but not documented`);
  if (!exampleNames.has(name)) problems.push(`.env.example: ${name} is a setting but not listed`);
}
for (const name of exampleNames) {
  if (!known.has(name)) problems.push(`.env.example: ${name} is not a setting of the service`);
}

if (problems.length > 0) {
  process.stderr.write(`docs check: ${problems.length} problem(s)\n${problems.map((p) => `  ${p}`).join('\n')}\n`);
  process.exit(1);
}
process.stdout.write(
  `docs check: ${docFiles().length} files, links, cited files, scripts and ${known.size} settings agree\n`,
);
