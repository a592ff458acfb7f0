/**
 * When a read already learnt when its record last changed (an event's read joins `change_heads`), it
 * tells `LastModifiedInterceptor` through the object it returns, which then needs no query of its own:
 * one round trip less on every single read.
 */
const known = new WeakMap<object, string | null>();

export function rememberChangedUtc<T extends object>(object: T, changedUtc: string | null): T {
  known.set(object, changedUtc);
  return object;
}

/** The remembered time (null: the record has no head), or undefined when the read did not say. */
export function rememberedChangedUtc(object: object): string | null | undefined {
  return known.get(object);
}
