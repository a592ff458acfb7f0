import { describe, expect, it } from '@jest/globals';
import { Linter } from 'eslint';
import { detachedDocComment } from '../../scripts/eslint-rules/detached-doc-comment.mjs';

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
  it('reports a doc comment followed by a blank line, by a closing brace, or above another stray one', () => {
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
    ].join('\n');
    expect(detachedLines(code)).toEqual([5, 9, 11]);
  });
});
