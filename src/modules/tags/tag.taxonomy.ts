import type { TaxonomyDefinition } from '../../core/terms/taxonomy.registry';

/** Event tags: flat, stored as `post_tag` (as the reference shares WordPress's tags). */
export const TAG_TAXONOMY: TaxonomyDefinition = {
  taxonomy: 'post_tag',
  hierarchical: false,
  label: { en: 'tag', de: 'Schlagwort' },
  restBase: 'tags',
};
