/**
 * Splits a search string into terms: words, with "quoted phrases" kept whole. Empty quotes and
 * surrounding space are dropped; at most 20 terms are used.
 */
export function searchTokens(search: string): string[] {
  const tokens: string[] = [];
  const pattern = /"([^"]*)"|(\S+)/g;
  let match: RegExpExecArray | null;
  while ((match = pattern.exec(search)) !== null && tokens.length < 20) {
    const token = (match[1] ?? match[2]).trim();
    if (token !== '') tokens.push(token);
  }
  return tokens;
}
