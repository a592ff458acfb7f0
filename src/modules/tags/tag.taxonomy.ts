import type { TaxonomyDefinition } from '../../core/terms/taxonomy.registry';
import { CALENDAR_TAXONOMIES } from '../calendar-post-types';

/** Event tags: flat, stored as `post_tag` (as the reference shares WordPress's tags). */
export const TAG_TAXONOMY: TaxonomyDefinition = {
  taxonomy: CALENDAR_TAXONOMIES.tag,
  noun: 'tag',
  hierarchical: false,
  label: { en: 'tag', de: 'Schlagwort' },
  restBase: 'tags',
  archivePath: 'tag',
};
