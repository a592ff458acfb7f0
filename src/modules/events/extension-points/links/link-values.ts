/** An event write's value of a declared link field, as the field's validator left it. */
export type LinkedItems = (number | Record<string, unknown>)[];

/** The value of a link field declared at run time on a DTO (its class has no static member for it). */
export function linkValueOf<T>(dto: object, field: string): T | undefined {
  return (dto as Record<string, T | undefined>)[field];
}
