/**
 * A JSON answer that is already text (event documents filled for the request). The response interceptor
 * sends the text as it is, with the headers `res.json` would give, instead of parsing it only for Express
 * to serialise it again.
 */
export class PreparedJson {
  constructor(readonly json: string) {}
}

/**
 * One record's prepared JSON: `id` and `modified_utc` are what `LastModifiedInterceptor` reads of a
 * record, and a list splices its text among the items it serialises.
 */
export class PreparedRecordJson extends PreparedJson {
  constructor(
    json: string,
    readonly id: number,
    readonly modified_utc: string,
  ) {
    super(json);
  }
}

/** The text a JSON answer sends: a prepared answer's own, anything else serialised as `res.json` does. */
export function jsonTextOf(value: object): string {
  return value instanceof PreparedJson ? value.json : JSON.stringify(value);
}
