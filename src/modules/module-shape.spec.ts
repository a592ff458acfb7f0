import { describe, expect, it } from '@jest/globals';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';

const EVENTS = 'src/modules/events';
const MAX_LINES = 300;

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : path.endsWith('.ts') ? [path] : [];
  });
}

/** The files under `events` a file imports (type-only imports too: they are arrows a reader follows). */
function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const targets: string[] = [];
  for (const match of text.matchAll(/from\s+'(\.{1,2}\/[^']*)'/g)) {
    const base = normalize(join(dirname(file), match[1]));
    for (const candidate of [`${base}.ts`, join(base, 'index.ts')]) {
      try {
        if (statSync(candidate).isFile()) {
          targets.push(candidate);
          break;
        }
      } catch {
        // Not this form of the path.
      }
    }
  }
  return targets;
}

/** Every import cycle among `files`, each as the files it runs through. */
function cyclesAmong(files: string[]): string[][] {
  const graph = new Map(files.map((f) => [f, importsOf(f).filter((t) => t.startsWith(EVENTS))]));
  const cycles: string[][] = [];
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const visit = (file: string) => {
    state.set(file, 'open');
    stack.push(file);
    for (const next of graph.get(file) ?? []) {
      if (state.get(next) === 'open') cycles.push(stack.slice(stack.indexOf(next)));
      else if (!state.has(next)) visit(next);
    }
    stack.pop();
    state.set(file, 'done');
  };
  for (const file of files) if (!state.has(file)) visit(file);
  return cycles;
}

/** The events module's shape (docs/architecture.md): its wings, kept so by this test and a lint rule. */
describe('the events module', () => {
  const files = filesUnder(EVENTS);

  it('holds nothing in its root folder but the module file and its public index', () => {
    const root = readdirSync(EVENTS).filter((name) => !statSync(join(EVENTS, name)).isDirectory());
    expect(root.sort()).toEqual(['events.module.ts', 'index.ts']);
  });

  it(`has no file over ${MAX_LINES} lines`, () => {
    const long = files
      .map((f) => ({ file: relative(EVENTS, f), lines: readFileSync(f, 'utf8').split('\n').length - 1 }))
      .filter((f) => f.lines > MAX_LINES);
    expect(long).toEqual([]);
  });

  it('has no import cycle', () => {
    expect(cyclesAmong(files).map((cycle) => cycle.map((f) => relative(EVENTS, f)))).toEqual([]);
  });

  it('is reached by other modules and the examples only through its index', () => {
    const outside = [...filesUnder('src'), ...filesUnder('examples')].filter(
      (f) => !f.startsWith(EVENTS) && !f.endsWith('.spec.ts'),
    );
    const reaching = outside.flatMap((f) =>
      importsOf(f)
        .filter((t) => t.startsWith(`${EVENTS}/`) && t !== `${EVENTS}/index.ts`)
        .map((t) => `${f} -> ${t}`),
    );
    expect(reaching).toEqual([]);
  });
});

describe('the examples', () => {
  it('import the service only through its public face, src/extend', () => {
    const reaching = filesUnder('examples').flatMap((f) =>
      importsOf(f)
        .filter((t) => t.startsWith('src/') && t !== 'src/extend/index.ts')
        .map((t) => `${f} -> ${t}`),
    );
    expect(reaching).toEqual([]);
  });
});
