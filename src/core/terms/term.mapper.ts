import type { RequestContext } from '../../common/http/request-context';
import { wpTermNameHtml } from '../../common/text/wordpress-text';
import type { TaxonomyDefinition } from './taxonomy.registry';
import type { TermEntity } from './term.entity';

/** The term object of behaviour.md §9, also embedded in events. */
export interface TermObject {
  id: number;
  name: string;
  slug: string;
  taxonomy: string;
  description: string;
  /** Categories only: the parent term id, 0 for a top-level term. */
  parent?: number;
  count: number;
  /** The term's page on the site: the alias's term routes only, as the reference's (`termPageUrls`). */
  url?: string;
  urls: { self: string; collection: string; up?: string };
}

export function toTermObject(
  term: TermEntity,
  taxonomy: TaxonomyDefinition,
  ctx: Pick<RequestContext, 'namespaceUrl' | 'dialect'>,
  pageUrl?: string,
): TermObject {
  const collection = `${ctx.namespaceUrl}/${taxonomy.restBase}`;
  const urls: TermObject['urls'] = { self: `${collection}/${term.id}`, collection };
  if (taxonomy.hierarchical && term.parentId) urls.up = `${collection}/${term.parentId}`;
  return {
    id: term.id,
    name: ctx.dialect === 'tec' ? wpTermNameHtml(term.name) : term.name,
    slug: term.slug,
    taxonomy: (ctx.dialect === 'tec' && taxonomy.tecName) || term.taxonomy,
    description: term.description,
    ...(taxonomy.hierarchical ? { parent: term.parentId ?? 0 } : {}),
    count: term.count,
    ...(pageUrl === undefined ? {} : { url: pageUrl }),
    urls,
  };
}
