/**
 * Pure parsers for the WordPress-style request values of behaviour.md §1. Each returns the parsed value,
 * or the input unchanged when it cannot be parsed, so the validator that follows rejects it by name.
 */

const TRUE_VALUES = new Set<unknown>([true, 1, 'true', '1']);
const FALSE_VALUES = new Set<unknown>([false, 0, 'false', '0']);

export function parseWpBoolean(value: unknown): unknown {
  if (TRUE_VALUES.has(value)) return true;
  if (FALSE_VALUES.has(value)) return false;
  return value;
}

export function parseInteger(value: unknown): unknown {
  if (typeof value === 'number') return value;
  if (typeof value === 'string' && /^[+-]?\d{1,15}$/.test(value.trim())) return Number(value.trim());
  return value;
}

export function parseNumber(value: unknown): unknown {
  if (typeof value === 'number') return value;
  if (typeof value === 'string' && /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(value.trim())) {
    return Number(value.trim());
  }
  return value;
}

/**
 * A list from `a[]=1&a[]=2`, `a[0]=1` (the query parser makes both arrays), a JSON array, or CSV `a=1,2`.
 * Items are trimmed and empty items dropped. A value that is not a list at all (an object) stays as it is.
 */
export function parseList(value: unknown): unknown {
  const items = Array.isArray(value) ? value : typeof value === 'string' || typeof value === 'number' ? [value] : null;
  if (items === null) return value;
  const out: unknown[] = [];
  for (const item of items) {
    if (typeof item === 'string') {
      for (const part of item.split(',')) {
        const trimmed = part.trim();
        if (trimmed !== '') out.push(trimmed);
      }
    } else {
      out.push(item);
    }
  }
  return out;
}

/** A list of positive integer IDs; non-numeric items stay strings so validation names them. */
export function parseIdList(value: unknown): unknown {
  const list = parseList(value);
  if (!Array.isArray(list)) return list;
  return list.map((item: unknown) => parseInteger(item));
}

/** A list of IDs or slugs: digit-only items become numbers, the rest stay strings. */
export function parseIdOrSlugList(value: unknown): unknown {
  const list = parseList(value);
  if (!Array.isArray(list)) return list;
  return list.map((item: unknown) => (typeof item === 'string' && /^\d+$/.test(item) ? Number(item) : item));
}
