import { describe, expect, it } from '@jest/globals';
import { Linter } from 'eslint';
import tseslint from 'typescript-eslint';
import { detachedDocComment } from '../../scripts/eslint-rules/detached-doc-comment.mjs';
import { globalModuleReason } from '../../scripts/eslint-rules/global-module-reason.mjs';

/** Problems the detached-doc-comment rule reports in `code`, by line. */
function detachedLines(code: string): number[] {
  const linter = new Linter({ configType: 'flat' });
  const messages = linter.verify(code, [
    {
      plugins: { local: { rules: { 'detached-doc-comment': detachedDocComment } } },
      rules: { 'local/detached-doc-comment': 'error' },
    },
  ]);
  return messages.map((m) => m.line);
}

describe('lint: detached doc comments', () => {
  it('reports a doc comment followed by a blank line, by a closing brace, or by another doc comment', () => {
    const code = [
      "import { a } from 'a';", // 1
      '/** The file. */', // 2: an overview, with only imports above it
      '',
      'const b = a;',
      '/** Stray. */', // 5
      '',
      'function c() {}',
      'class D {',
      '  /** Orphan at the end. */', // 9
      '}',
      '/** Lost. */', // 11
      '',
      '/** Right. */',
      'function e() { return b + c + new D(); }',
      '/** Before a note, then right. */',
      '// note',
      'export const f = e;',
      '/** Stacked above another doc comment. */', // 18
      '/** Right. */',
      'export const g = f;',
    ].join('\n');
    expect(detachedLines(code)).toEqual([5, 9, 11, 18]);
  });
});

describe('lint: @Global() modules', () => {
  it('reports a global module whose doc comment gives no reason', () => {
    const linter = new Linter({ configType: 'flat' });
    const code = [
      "import { Global, Module } from '@nestjs/common';",
      '/** Settings. Global: every layer reads them. */',
      '@Global()',
      '@Module({})',
      'export class Reasoned {}',
      '/** Only a description. */',
      '@Global()', // 7
      '@Module({})',
      'export class Unreasoned {}',
      '@Module({})',
      '@Global()', // 11
      'export class Bare {}',
    ].join('\n');
    const messages = linter.verify(code, [
      {
        languageOptions: { parser: tseslint.parser },
        plugins: { local: { rules: { 'global-module-reason': globalModuleReason } } },
        rules: { 'local/global-module-reason': 'error' },
      },
    ]);
    expect(messages.map((m) => [m.line, m.message])).toEqual([
      [7, '@Global() needs its reason in the doc comment above it ("Global: …").'],
      [11, '@Global() needs its reason in the doc comment above it ("Global: …").'],
    ]);
  });
});
