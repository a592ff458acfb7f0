/**
 * The preconditions of a write (RFC 9110 §13): `If-Match` (strong entity tags, or `*`) and, when that is
 * absent, `If-Unmodified-Since`. Null when the request sets neither: the write is unconditional.
 */
export interface WriteConditions {
  ifMatch: string[] | '*' | null;
  ifUnmodifiedSince: Date | null;
}

const ENTITY_TAG = /\s*((?:W\/)?"[^"]*")\s*(?:,|$)/y;

/** The entity tags of an `If-Match` value, or null when it is not a valid list. */
export function parseEntityTags(value: string): string[] | '*' | null {
  if (value.trim() === '*') return '*';
  const tags: string[] = [];
  ENTITY_TAG.lastIndex = 0;
  while (ENTITY_TAG.lastIndex < value.length) {
    const match = ENTITY_TAG.exec(value);
    if (!match) return null;
    tags.push(match[1]);
  }
  return tags.length > 0 ? tags : null;
}

/** An HTTP date (IMF-fixdate and the obsolete forms `Date.parse` reads), or null. */
export function parseHttpDate(value: string): Date | null {
  if (!/^[A-Za-z]{3},? /.test(value.trim())) return null;
  const time = Date.parse(value);
  return Number.isNaN(time) ? null : new Date(time);
}

export function writeConditionsOf(headers: {
  'if-match'?: string;
  'if-unmodified-since'?: string;
}): WriteConditions | null {
  const ifMatchHeader = headers['if-match'];
  const sinceHeader = headers['if-unmodified-since'];
  if (ifMatchHeader === undefined && sinceHeader === undefined) return null;
  // An If-Match that parses as nothing matches nothing (a malformed tag is never the current one).
  const ifMatch = ifMatchHeader === undefined ? null : (parseEntityTags(ifMatchHeader) ?? []);
  // A date that does not parse is ignored (RFC 9110 §13.1.4); so is the date when If-Match is present.
  const ifUnmodifiedSince = ifMatch !== null || sinceHeader === undefined ? null : parseHttpDate(sinceHeader);
  if (ifMatch === null && ifUnmodifiedSince === null) return null;
  return { ifMatch, ifUnmodifiedSince };
}

/** Strong comparison: a weak tag never matches, and a representation has one current tag. */
export function matchesIfMatch(conditions: WriteConditions, currentTag: string): boolean {
  if (conditions.ifMatch === null || conditions.ifMatch === '*') return true;
  return conditions.ifMatch.some((tag) => !tag.startsWith('W/') && tag === currentTag);
}

/** Whether the record is unmodified since the date (HTTP dates have whole seconds). */
export function unmodifiedSince(conditions: WriteConditions, lastModifiedUtc: string | null): boolean {
  if (conditions.ifUnmodifiedSince === null || lastModifiedUtc === null) return true;
  const modified = Date.parse(`${lastModifiedUtc.replace(' ', 'T')}Z`);
  return modified <= conditions.ifUnmodifiedSince.getTime();
}
