import type { TestApp } from './create-test-app';

const ns = '/cal/events/v1';

/** A parameter of `GET /events` as the OpenAPI document declares it. */
export interface DeclaredParam {
  name: string;
  schema?: { type?: string; minimum?: number; maximum?: number; items?: { type?: string; enum?: string[] } };
  'x-cal-samples'?: string[];
  'x-cal-samples-of'?: string;
}

/**
 * The samples of one declared filter, from its declaration: the values it lists (`x-cal-samples`), the ids and
 * slugs of the records of the collection it names (`x-cal-samples-of`), and what its type implies (a boolean's
 * two values, an enum's values, an integer's bounds), then the values a test's own data gives meaning to (`dataSamples`).
 */
export function samplesOf(
  param: DeclaredParam,
  records: Map<string, { id: number; slug?: string }[]>,
  dataSamples: Record<string, readonly string[]> = {},
): string[] {
  const values = [...(param['x-cal-samples'] ?? [])];
  const of = param['x-cal-samples-of'];
  const { schema = {} } = param;
  if (of !== undefined) {
    const found = records.get(of) ?? [];
    values.push(...found.map((r) => String(r.id)), found.map((r) => r.id).join(','));
    if (schema.items?.type !== 'integer' && found[0]?.slug) values.push(found[0].slug);
  }
  if (schema.type === 'boolean') values.push('true', 'false');
  if (schema.items?.enum) values.push(...schema.items.enum, schema.items.enum.join(','));
  if (schema.type === 'integer' || schema.type === 'number') {
    const low = schema.minimum ?? 0;
    const high = schema.maximum ?? Number.MAX_SAFE_INTEGER;
    values.push(...[low, low + 49, low + 499].filter((v) => v <= high).map(String));
  }
  values.push(...(dataSamples[param.name] ?? []));
  return [...new Set(values.filter((v) => v !== ''))];
}

/** Each declared parameter of `GET /events` and its samples, the collections' records read as `auth`. */
export async function declaredListSamples(
  t: TestApp,
  auth: string,
  dataSamples: Record<string, readonly string[]> = {},
): Promise<Map<string, string[]>> {
  const doc = (await t.http.get(`${ns}/doc`).expect(200)).body as {
    paths: Record<string, { get: { parameters: DeclaredParam[] } }>;
  };
  const params = doc.paths[`${ns}/events`].get.parameters;
  const records = new Map<string, { id: number; slug?: string }[]>();
  for (const of of new Set(params.map((p) => p['x-cal-samples-of']).filter((o) => o !== undefined))) {
    const res = await t.http.get(`${ns}/${of}?per_page=2`).set('Authorization', auth).expect(200);
    const body = res.body as Record<string, { id: number; slug?: string }[]>;
    records.set(of, Array.isArray(body) ? body : (body[of] ?? []));
  }
  return new Map(params.map((p) => [p.name, samplesOf(p, records, dataSamples)]));
}
