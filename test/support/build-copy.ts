import { cpSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// The tests run from the repository root (npm test).
const root = process.cwd();

export interface BuildCopy {
  /** The copy's folder, laid out as a checkout that `npm start` runs (a bench's `startServer` checkout). */
  folder: string;
  /** The copy's `dist/src/main.js`, for `ServiceProcess`'s `entry`. */
  main: string;
  remove(): void;
}

/**
 * Another build of the service, as a deploy of a changed commit would run it: a copy of `dist/` with one
 * compiled file edited (`from`, which must occur in it, becomes `to`), beside this tree's `package.json`, its
 * build check (with no sources beside it, the copy is never rebuilt) and installed packages (linked).
 */
export function copyOfBuild(edit: { file: string; from: string; to: string }): BuildCopy {
  const folder = mkdtempSync(join(tmpdir(), 'cal-build-'));
  cpSync(join(root, 'dist'), join(folder, 'dist'), { recursive: true });
  cpSync(join(root, 'package.json'), join(folder, 'package.json'));
  cpSync(join(root, 'scripts', 'build-if-needed.cjs'), join(folder, 'scripts', 'build-if-needed.cjs'));
  symlinkSync(join(root, 'node_modules'), join(folder, 'node_modules'), 'dir');
  const path = join(folder, 'dist', edit.file);
  const text = readFileSync(path, 'utf8');
  if (!text.includes(edit.from)) throw new Error(`${edit.file} does not hold ${JSON.stringify(edit.from)}`);
  writeFileSync(path, text.replace(edit.from, edit.to));
  return {
    folder,
    main: join(folder, 'dist', 'src', 'main.js'),
    remove: () => rmSync(folder, { recursive: true, force: true }),
  };
}
