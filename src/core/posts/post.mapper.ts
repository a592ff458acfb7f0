import type { RequestContext } from '../../common/http/request-context';
import type { PostTypeDefinition } from './post-type.registry';
import { effectiveStatus } from './post-status';
import type { PostEntity } from './post.entity';

/** Fields every post object starts with (behaviour.md §5 and §8). */
export type BasePostFields = {
  id: number;
  global_id: string;
  global_id_lineage: string[];
  author: number;
  status: string;
  date: string;
  date_utc: string;
  modified: string;
  modified_utc: string;
  url: string;
  rest_url: string;
};

// The host of the last site URL seen: one site per process in practice, and parsing a URL per post showed.
let lastSite = { url: '', host: '' };

/** The host of a site URL (remembered for the last one). */
export function siteHostOf(ctx: Pick<RequestContext, 'siteUrl' | 'siteHost'>): string {
  if (ctx.siteHost !== undefined) return ctx.siteHost;
  if (lastSite.url !== ctx.siteUrl) lastSite = { url: ctx.siteUrl, host: new URL(ctx.siteUrl).host };
  return lastSite.host;
}

/** `<host>?id=<id>`: an id that stays unique across sites sharing a calendar (as the reference). */
export function globalIdOf(ctx: RequestContext, id: number): string {
  return `${siteHostOf(ctx)}?id=${id}`;
}

/** Where a site would show the record: `<site>/<noun>/<slug>/`. The service itself serves no pages. */
export function permalinkOf(ctx: RequestContext, def: PostTypeDefinition, slug: string): string {
  return `${ctx.siteUrl}/${def.noun}/${slug}/`;
}

export function basePostFields(
  post: PostEntity,
  def: PostTypeDefinition,
  restBase: string,
  ctx: RequestContext,
  nowUtc: string,
): BasePostFields {
  const globalId = globalIdOf(ctx, post.id);
  return {
    id: post.id,
    global_id: globalId,
    global_id_lineage: [globalId],
    author: post.authorId ?? 0,
    status: effectiveStatus(post.status, post.dateUtc, nowUtc),
    date: post.dateLocal,
    date_utc: post.dateUtc,
    modified: post.modifiedLocal,
    modified_utc: post.modifiedUtc,
    url: permalinkOf(ctx, def, post.slug),
    rest_url: `${ctx.namespaceUrl}/${restBase}/${post.id}`,
  };
}

/** The leading keys of post objects, in the reference's order. */
export function postHead(base: BasePostFields) {
  return {
    id: base.id,
    author: base.author,
    status: base.status,
    date: base.date,
    date_utc: base.date_utc,
    modified: base.modified,
    modified_utc: base.modified_utc,
    url: base.url,
    rest_url: base.rest_url,
  };
}

/** Sets `key` unless `value` is empty (`''`, null, undefined), as venue and organizer objects leave those out. */
export function setIfPresent(object: Record<string, unknown>, key: string, value: unknown): void {
  if (value !== '' && value !== null && value !== undefined) object[key] = value;
}

/** Drops keys whose value is empty (`''`, null, undefined, false images), as venue and organizer objects do. */
export function withoutEmpty<T extends Record<string, unknown>>(object: T): Partial<T> {
  const out: Partial<T> = {};
  for (const [key, value] of Object.entries(object) as [keyof T, T[keyof T]][]) {
    if (value === '' || value === null || value === undefined) continue;
    if (key === 'image' && value === false) continue;
    out[key] = value;
  }
  return out;
}
