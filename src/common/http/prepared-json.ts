/**
 * A record's JSON answer that is already text (an event's stored document filled for the request). The
 * response interceptor sends the text as it is, with the headers `res.json` would give, instead of
 * parsing it only for Express to serialise it again. `id` and `modified_utc` are what
 * `LastModifiedInterceptor` reads of a record.
 */
export class PreparedJson {
  constructor(
    readonly json: string,
    readonly id: number,
    readonly modified_utc: string,
  ) {}
}

/** The text a JSON answer sends: a prepared answer's own, anything else serialised as `res.json` does. */
export function jsonTextOf(value: object): string {
  return value instanceof PreparedJson ? value.json : JSON.stringify(value);
}
