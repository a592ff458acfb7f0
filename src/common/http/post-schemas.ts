import { docText } from '../i18n/doc-text';

/** OpenAPI schemas shared by the components of the OpenAPI document: the post head, dates, images. */
export type Schema = Record<string, unknown>;

export const str: Schema = { type: 'string' };
export const int: Schema = { type: 'integer' };
export const bool: Schema = { type: 'boolean' };
export const nullableBool: Schema = { type: 'boolean', nullable: true };
export const ref = (name: string): Schema => ({ $ref: `#/components/schemas/${name}` });
export const arrayOf = (items: Schema): Schema => ({ type: 'array', items });
export const object = (properties: Record<string, Schema>, required = Object.keys(properties)): Schema => ({
  type: 'object',
  properties,
  required,
});

/**
 * A day a week after the service started (`YYYY-MM-DD`): the examples' dates, so that an event made from them
 * in the UI's "Try it out" falls in the lists' default window (today to 24 months ahead) and is listed.
 */
export const EXAMPLE_DAY = new Date(Date.now() + 7 * 86_400_000).toISOString().slice(0, 10);
export const DATE = { type: 'string', example: `${EXAMPLE_DAY} 19:30:00` };
export const DATE_DETAILS = object({ year: str, month: str, day: str, hour: str, minutes: str, seconds: str });

/** The fields every post object starts with (behaviour.md §5, §8). */
export const POST_HEAD: Record<string, Schema> = {
  id: int,
  global_id: str,
  global_id_lineage: arrayOf(str),
  author: int,
  status: { type: 'string', enum: ['publish', 'future', 'draft', 'pending', 'private', 'trash'] },
  date: DATE,
  date_utc: DATE,
  modified: DATE,
  modified_utc: DATE,
  url: { type: 'string', format: 'uri' },
  rest_url: { type: 'string', format: 'uri' },
};

export const IMAGE = {
  description: docText({
    en: '`false` without an image, else the image attachment.',
    de: '`false` ohne Bild, sonst der Bildanhang.',
  }),
  oneOf: [
    { type: 'boolean', enum: [false] },
    object({ id: int, url: { type: 'string', format: 'uri' }, extension: str }, ['id', 'url']),
  ],
};
