import { Injectable } from '@nestjs/common';
import type { Localized } from '../../common/i18n/language';

/** What a taxonomy module tells the terms base about itself. */
export interface TaxonomyDefinition {
  /** Stored in `terms.taxonomy`, e.g. `cal_events_cat` or `post_tag`; at most 32 characters. */
  taxonomy: string;
  /** Its resource name in the change feed and webhooks: `category`, `tag`. */
  noun: string;
  /** Whether terms may have a parent (categories) or not (tags). */
  hierarchical: boolean;
  /** The taxonomy's name in messages. */
  label: Localized;
  /** Collection path under the namespace and key of its list envelope, e.g. `categories`. */
  restBase: string;
  /** The reference's name for it, shown through the TEC-compatible alias (`tribe_events_cat`). */
  tecName?: string;
  /**
   * Where the site's page of a term lives, under the site URL: the `url` of term objects in the alias's term
   * routes (`events/category` → `/events/category/music/jazz/`, a category's path through its parents).
   * Defaults to the noun.
   */
  archivePath?: string;
}

/** The taxonomies the running service knows. Filled by `TermsModule.forTaxonomy()` at start-up. */
@Injectable()
export class TaxonomyRegistry {
  private readonly taxonomies = new Map<string, TaxonomyDefinition>();

  register(definition: TaxonomyDefinition): void {
    if (definition.taxonomy.length > 32) throw new Error(`taxonomy "${definition.taxonomy}" is too long`);
    const existing = this.taxonomies.get(definition.taxonomy);
    if (existing && existing !== definition) throw new Error(`taxonomy "${definition.taxonomy}" is registered twice`);
    this.taxonomies.set(definition.taxonomy, definition);
  }

  get(taxonomy: string): TaxonomyDefinition {
    const definition = this.taxonomies.get(taxonomy);
    if (!definition) {
      throw new Error(`taxonomy "${taxonomy}" is not registered: import its module (TermsModule.forTaxonomy)`);
    }
    return definition;
  }

  has(taxonomy: string): boolean {
    return this.taxonomies.has(taxonomy);
  }

  all(): TaxonomyDefinition[] {
    return [...this.taxonomies.values()];
  }
}
