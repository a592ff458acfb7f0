import slugifyLibrary from 'slugify';

export const MAX_SLUG_LENGTH = 200;
// Room for a `-NNN` suffix within the column.
const BASE_SLUG_LENGTH = MAX_SLUG_LENGTH - 10;

/**
 * A slug from free text: accents and other scripts folded to ASCII letters, lower case, every run of
 * other characters a single `-`. Returns '' when nothing usable is left.
 */
export function slugify(text: string): string {
  const spaced = text.normalize('NFC').replace(/[^\p{L}\p{N}]+/gu, ' ');
  const folded = slugifyLibrary(spaced, { lower: true, strict: true, trim: true, replacement: '-' });
  return folded
    .replace(/[^a-z0-9]+/g, '-')
    .slice(0, BASE_SLUG_LENGTH)
    .replace(/^-+|-+$/g, '');
}

/**
 * The first of `base`, `base-2`, `base-3`, … that is not taken. `taken` holds the slugs that already
 * exist with this prefix (excluding the row being updated).
 */
export function pickAvailableSlug(base: string, taken: Iterable<string>): string {
  const used = new Set(taken);
  if (!used.has(base)) return base;
  for (let n = 2; ; n++) {
    const candidate = `${base}-${n}`;
    if (!used.has(candidate)) return candidate;
  }
}
