import type { TaxonomyDefinition } from '../../core/terms/taxonomy.registry';
import { CALENDAR_TAXONOMIES } from '../calendar-post-types';

/** Event categories: hierarchical, stored as `cal_events_cat`. */
export const CATEGORY_TAXONOMY: TaxonomyDefinition = {
  taxonomy: CALENDAR_TAXONOMIES.category,
  noun: 'category',
  hierarchical: true,
  label: { en: 'event category', de: 'Veranstaltungskategorie' },
  restBase: 'categories',
  tecName: 'tribe_events_cat',
  archivePath: 'events/category',
};
