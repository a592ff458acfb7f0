import { createHash, type Hash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { serviceVersion } from './version';

/**
 * The identity of the code and data that shape everything the service derives and keeps (stored event
 * documents, the word index, feeds' validators): a hash of the whole build, not of hand-picked functions. A
 * helper the mapper calls three calls deep is as much part of a document's shape as the mapper; a hand-kept
 * list of what to hash forgot such helpers, and documents of the old shape were then served beside new ones.
 *
 * It covers:
 * - every file of the service's code (`src/` and `examples/` beside this build: `dist/` compiled, or the
 *   project's own folders under ts-node), source maps and declarations aside;
 * - the installed dependencies (npm's record of them, `node_modules/.package-lock.json`, or the lockfile);
 * - each module file of `CAL_EXTENSIONS` outside the service's code, with the code files of its package;
 * - the runtime: Node's version and its time-zone and ICU data (dates, zones and `Intl` output depend on them).
 *
 * Two builds (or one build on two Node lines) have two identities; what each derives is kept per identity, so
 * neither rewrites the other's (docs/architecture.md, "Event documents").
 */
export function buildIdentity(): string {
  const files = [...extensionFiles].sort();
  const key = files.join('\n');
  let identity = identities.get(key);
  if (identity === undefined) {
    identity = identityOf(CODE_ROOT, files);
    identities.set(key, identity);
  }
  return identity;
}

/** {@link buildIdentity} of the code under `codeRoot` and the given extension module files. */
export function identityOf(codeRoot: string, extensionModuleFiles: readonly string[]): string {
  const hash = createHash('sha256');
  hash.update(`service ${serviceVersion()}\0node ${process.versions.node}\0`);
  hash.update(`tz ${process.versions.tz ?? ''}\0icu ${process.versions.icu ?? ''}\0`);
  for (const folder of CODE_FOLDERS) hashTree(hash, join(codeRoot, folder), codeRoot);
  hashDependencies(hash, codeRoot);
  for (const file of extensionModuleFiles) {
    if (isInside(file, codeRoot)) continue;
    const packageRoot = packageRootOf(file);
    hash.update(`extension ${relative(packageRoot, file)}\0`);
    hashTree(hash, packageRoot, packageRoot);
  }
  return hash.digest('hex').slice(0, 32);
}

/** Called for each module file `CAL_EXTENSIONS` names as it is loaded: its code is part of the identity. */
export function noteExtensionFile(path: string): void {
  extensionFiles.add(path);
}

/** This file is `<root>/src/operations/build-identity.{js,ts}`: `<root>` is `dist/` or the project (the unit
 * tests run the sources as ES modules, without `__dirname`, from the project's folder). */
const CODE_ROOT = typeof __dirname === 'string' ? join(__dirname, '..', '..') : process.cwd();
const CODE_FOLDERS = ['src', 'examples'];
/** Files that never run: a change in them alone does not change what the service derives. */
const NOT_CODE = /\.(map|d\.ts|d\.cts|d\.mts|tsbuildinfo|md)$/;
/** An extension package's files hashed at most; past it, size and name stand for content (a start stays quick). */
const MAX_HASHED_BYTES = 64 * 1024 * 1024;

const extensionFiles = new Set<string>();
const identities = new Map<string, string>();

function hashTree(hash: Hash, folder: string, base: string, budget = { bytes: MAX_HASHED_BYTES }): void {
  if (!existsSync(folder)) return;
  for (const entry of readdirSync(folder, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
    if (entry.name.startsWith('.') || entry.name === 'node_modules') continue;
    const path = join(folder, entry.name);
    if (entry.isDirectory()) hashTree(hash, path, base, budget);
    else if (entry.isFile() && !NOT_CODE.test(entry.name)) {
      const size = statSync(path).size;
      hash.update(`${relative(base, path).split(sep).join('/')}\0${size}\0`);
      if (size <= budget.bytes) {
        budget.bytes -= size;
        hash.update(readFileSync(path));
      }
    }
  }
}

/** npm's record of what `npm ci` installed, else the lockfile, found upwards from the code. */
function hashDependencies(hash: Hash, codeRoot: string): void {
  for (let dir = codeRoot; ; dir = dirname(dir)) {
    for (const record of [join('node_modules', '.package-lock.json'), 'package-lock.json']) {
      const path = join(dir, record);
      if (existsSync(path)) {
        hash.update(`dependencies\0`).update(readFileSync(path));
        return;
      }
    }
    if (dirname(dir) === dir) return;
  }
}

/** The folder of the nearest package.json above `file`, or the file's own folder when there is none. */
function packageRootOf(file: string): string {
  for (let dir = dirname(file); ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json'))) return dir;
    if (dirname(dir) === dir) return dirname(file);
  }
}

function isInside(file: string, folder: string): boolean {
  const path = relative(folder, file);
  return path !== '' && !path.startsWith('..') && !path.startsWith(sep);
}
