/**
 * `LIKE` patterns that match user text literally on every dialect: `%`, `_` and the escape character
 * itself are escaped with `!`, declared by {@link LIKE_ESCAPE} (SQLite has no default escape character).
 */
export const LIKE_ESCAPE = "ESCAPE '!'";

export function likeContains(text: string): string {
  return `%${text.replace(/[!%_]/g, (c) => `!${c}`)}%`;
}
