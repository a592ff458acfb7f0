import type { Type } from '@nestjs/common';
import { existsSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { CALENDAR_MODULES } from './app.module';
import { ConfigurationError } from './config/env.schema';
import { noteExtensionModuleFile } from './extension-file';
import { seamsMissing } from './modules/events';
import { noteExtensionFile } from './operations/build-identity';

/** Metadata `@Module()` sets on a class. */
const MODULE_METADATA = ['imports', 'providers', 'controllers', 'exports'];

function isNestModule(value: unknown): value is Type {
  return typeof value === 'function' && MODULE_METADATA.some((key) => Reflect.getMetadata(key, value) !== undefined);
}

/**
 * The modules of `CAL_EXTENSIONS`: each file named (comma-separated, resolved from `cwd`) is imported and every
 * Nest module it exports is loaded. A file that does not exist or exports no module fails the start, naming it.
 */
export async function loadExtensionModules(setting: string, cwd = process.cwd()): Promise<Type[]> {
  const modules: Type[] = [];
  for (const file of setting
    .split(',')
    .map((f) => f.trim())
    .filter((f) => f !== '')) {
    if (/\.(c|m)?ts$/.test(file) && !file.endsWith('.d.ts')) {
      // Node cannot import TypeScript source; without this the start fails with "Unknown file extension".
      const compiled = file.replace(/\.(c|m)?ts$/, (ext) => ext.replace('ts', 'js'));
      throw new ConfigurationError([
        `CAL_EXTENSIONS: ${file}: a TypeScript source; build the package (tsc) and name the compiled file, e.g. ${compiled} under its outDir`,
      ]);
    }
    const path = isAbsolute(file) ? file : resolve(cwd, file);
    if (!existsSync(path)) {
      throw new ConfigurationError([`CAL_EXTENSIONS: ${file}: no such file (resolved from ${cwd})`]);
    }
    noteExtensionFile(path);
    const exported = (await import(pathToFileURL(path).href)) as Record<string, unknown>;
    const found = Object.values(exported).filter(isNestModule);
    if (found.length === 0) throw new ConfigurationError([`CAL_EXTENSIONS: ${file}: exports no Nest module`]);
    for (const module of found) {
      noteExtensionModuleFile(module, file);
      if (seamsMissing(module) > 0)
        throw new ConfigurationError([
          `CAL_EXTENSIONS: ${file}: ${module.name} has a seam decorator (@LinkedPostType, @EventChildResource, …) below its @Module(); put it above, or leave @Module() out`,
        ]);
    }
    modules.push(...found.filter((m) => !modules.includes(m)));
  }
  return modules;
}

/**
 * The resource modules a process runs: the calendar's, then the extensions of `CAL_EXTENSIONS`. The one list
 * every entry point uses (HTTP server, cluster workers and primary, CLI, webhook worker), so a deployment's
 * extension is never missing from one of them.
 */
export async function applicationModules(extensions: string, cwd = process.cwd()): Promise<Type[]> {
  return [...CALENDAR_MODULES, ...(await loadExtensionModules(extensions, cwd))];
}
