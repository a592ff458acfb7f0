import { Injectable } from '@nestjs/common';
import type { Localized } from '../../../../common/i18n/language';
import type { TaxonomyDefinition } from '../../../../core/terms/taxonomy.registry';
import type { TaxonomyRoutesSpec } from '../../../../core/terms/taxonomy.controller';
import { CALENDAR_TAXONOMIES } from '../../../calendar-post-types';

/**
 * A taxonomy a module adds to events (audiences, regions), declared like a linked post type: its own routes
 * and counts over the terms base, the event's member and write field (`field`, the terms by name), and the
 * list filter of the same name. `EventTaxonomyModule.forDefinition()` builds it all.
 */
export interface EventTaxonomyDefinition {
  taxonomy: TaxonomyDefinition;
  /** The event's member, write field and list filter: `audiences`. */
  field: string;
  writeDescription: Localized;
  filterDescription: Localized;
  /** The routes' names, and DTOs when it takes more than a flat or hierarchical taxonomy's. */
  routes: TaxonomyRoutesSpec;
}

/** The taxonomies modules added to events, in registration order. */
@Injectable()
export class EventTaxonomyRegistry {
  private readonly definitions: EventTaxonomyDefinition[] = [];

  register(definition: EventTaxonomyDefinition): void {
    if (this.definitions.some((d) => d.field === definition.field))
      throw new Error(`the event taxonomy field "${definition.field}" is registered twice`);
    this.definitions.push(definition);
  }

  all(): readonly EventTaxonomyDefinition[] {
    return this.definitions;
  }

  /**
   * Every taxonomy on events, by its member, write field and list filter: categories, tags, then the modules'.
   * The one list every path takes them from (objects, writes, filters, series, imports).
   */
  termFields(): { field: string; taxonomy: string; hierarchical: boolean }[] {
    return [
      { field: 'categories', taxonomy: CALENDAR_TAXONOMIES.category, hierarchical: true },
      { field: 'tags', taxonomy: CALENDAR_TAXONOMIES.tag, hierarchical: false },
      ...this.definitions.map((d) => ({
        field: d.field,
        taxonomy: d.taxonomy.taxonomy,
        hierarchical: d.taxonomy.hierarchical,
      })),
    ];
  }
}
