import type { Dialect, RequestContext } from '../../../../common/http/request-context';
import { DEFAULT_LANGUAGE } from '../../../../common/i18n/language';
import { siteHostOf } from '../../../../core/posts/post.mapper';

/*
 * A stored event document is the event's JSON with what depends on the request (the site's origin and
 * host, the namespace's root URL) and what changes with other events (each term's `count`) left as
 * placeholders. A placeholder is a lone UTF-16 surrogate, which JSON.stringify writes as the escape
 * `\ud800`: text read from the database never holds one (both drivers decode UTF-8, which cannot encode a
 * lone surrogate, and encode such input as U+FFFD), so a placeholder can only be one the template put there.
 */
const MARK = '\ud800';
const SITE = `${MARK}S`;
const HOST = `${MARK}H`;
const NAMESPACE = `${MARK}N`;

/** What the template's `count` holds for term `id`: a string, replaced, quotes and all, by the number. */
export function countPlaceholder(id: number): string {
  return `${MARK}C${id}${MARK}`;
}

/**
 * The context documents are built in: an anonymous caller, placeholders for everything request-specific
 * (the native dialect's; `inDialect` gives another's).
 */
export const TEMPLATE_CONTEXT: RequestContext = Object.freeze({
  kind: 'request-context',
  user: null,
  language: DEFAULT_LANGUAGE,
  restBase: `${SITE}/api`,
  siteUrl: SITE,
  siteHost: HOST,
  namespaceUrl: NAMESPACE,
  dialect: 'cal',
  requestId: '',
  clientAddress: '',
  conditions: null,
});

/** A context (the template's, a sample request's) in another dialect (the TEC alias's). */
export function inDialect(ctx: RequestContext, dialect: Dialect): RequestContext {
  return ctx.dialect === dialect ? ctx : Object.freeze({ ...ctx, dialect });
}

// In the JSON text: `\ud800` then S, H or N, its backslash not itself escaped (text that spells out
// "\ud800S" is written `\\ud800S`); or a whole string `"\ud800C<id>\ud800"`.
const PLACEHOLDER = /(?<=(?<!\\)(?:\\\\)*)\\ud800([SHN])|"\\ud800C(\d+)\\ud800"/g;
const COUNT = /"\\ud800C(\d+)\\ud800"/g;

/** The ids of the terms whose counts `template` needs. */
export function countedTermIds(template: string): number[] {
  const ids: number[] = [];
  for (const match of template.matchAll(COUNT)) ids.push(Number(match[1]));
  return ids;
}

/** A JSON string's contents for `value`, without the quotes. */
const jsonText = (value: string) => JSON.stringify(value).slice(1, -1);

/** Fills a template's placeholders for one request; terms missing from `counts` (deleted since) count 0. */
export function renderDocument(
  template: string,
  ctx: Pick<RequestContext, 'siteUrl' | 'siteHost' | 'namespaceUrl'>,
  counts: ReadonlyMap<number, number>,
): string {
  const values: Record<string, string> = {
    S: jsonText(ctx.siteUrl),
    H: jsonText(siteHostOf(ctx)),
    N: jsonText(ctx.namespaceUrl),
  };
  return template.replace(PLACEHOLDER, (_match, name: string | undefined, termId: string | undefined) =>
    name === undefined ? String(counts.get(Number(termId)) ?? 0) : values[name],
  );
}
