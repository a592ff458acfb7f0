import type { TaxonomyDefinition } from '../../core/terms/taxonomy.registry';

/** Event categories: hierarchical, stored as `cal_events_cat`. */
export const CATEGORY_TAXONOMY: TaxonomyDefinition = {
  taxonomy: 'cal_events_cat',
  hierarchical: true,
  label: { en: 'event category', de: 'Veranstaltungskategorie' },
  restBase: 'categories',
};
