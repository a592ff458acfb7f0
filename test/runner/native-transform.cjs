'use strict';
// The e2e specs run their own code in Jest, but everything they import from the service (`src/…`,
// `examples/…`) or from a package (`node_modules/…`) is a stand-in that re-exports the module loaded by the
// worker process's own `require`: for the service, its compiled form in dist/. Jest evaluates each spec
// file's whole module graph again, as ES modules in a vm (about 4 s of CPU per file for the service and its
// packages); loaded natively, the graph is evaluated once per worker and shared by the files it runs. A spec
// and the service then also share one copy of each package (one `DataSource` class, one Nest).
const { createHash } = require('node:crypto');
const { existsSync, readFileSync, statSync } = require('node:fs');
const { join, relative, sep } = require('node:path');

const root = join(__dirname, '..', '..');
const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;
// A stand-in Jest cached under an older version of this file is not reused.
const SELF = createHash('sha256').update(readFileSync(__filename)).digest('hex');

/** The file the worker loads for `sourcePath`: the compiled module for the service's sources. */
function nativePathOf(sourcePath) {
  if (sourcePath.includes(`${sep}node_modules${sep}`)) return sourcePath;
  return join(root, 'dist', relative(root, sourcePath).replace(/\.ts$/, '.js'));
}

function stamp(path) {
  return existsSync(path) ? String(statSync(path).mtimeMs) : 'missing';
}

module.exports = {
  getCacheKey(sourceText, sourcePath, options) {
    const nativePath = nativePathOf(sourcePath);
    return createHash('sha256')
      .update([SELF, sourcePath, nativePath, stamp(nativePath), String(options.supportsStaticESM)].join('\0'))
      .update(sourceText)
      .digest('hex');
  },
  process(sourceText, sourcePath, options) {
    const nativePath = nativePathOf(sourcePath);
    if (!existsSync(nativePath)) {
      throw new Error(`${nativePath} is missing: the e2e specs load the compiled service (npm run build)`);
    }
    const load = `globalThis.__calRequireNative(${JSON.stringify(nativePath)})`;
    if (!options.supportsStaticESM) return { code: `module.exports = ${load};\n` };
    const exported = require(nativePath);
    const names = Object.keys(exported).filter((name) => name !== 'default' && IDENTIFIER.test(name));
    const lines = [`const loaded = ${load};`];
    // An ES module loaded by require() is its namespace, and a CommonJS module compiled from one marks itself
    // `__esModule`: their default export is `default`. Any other CommonJS module's is its `module.exports`.
    lines.push(
      "const namespace = loaded.__esModule || Object.prototype.toString.call(loaded) === '[object Module]';",
      `export default namespace && 'default' in loaded ? loaded.default : loaded;`,
    );
    for (const name of names) lines.push(`export const ${name} = loaded[${JSON.stringify(name)}];`);
    return { code: lines.join('\n') + '\n' };
  },
};
