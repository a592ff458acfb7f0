import { EventTaxonomy, type EventTaxonomyDefinition } from '../../src/extend';

/** Who an event is for: `/cal/events/v1/audiences`, shown, written and filtered on events as `audiences`. */
export const AUDIENCES: EventTaxonomyDefinition = {
  taxonomy: {
    taxonomy: 'cal_audience',
    noun: 'audience',
    hierarchical: false,
    label: { en: 'audience', de: 'Zielgruppe' },
    restBase: 'audiences',
  },
  field: 'audiences',
  writeDescription: {
    en: 'Audience IDs or names; unknown names create the audience.',
    de: 'Zielgruppen (IDs oder Namen).',
  },
  filterDescription: {
    en: 'Events for any of these audiences (IDs or slugs).',
    de: 'Veranstaltungen für eine dieser Zielgruppen.',
  },
  routes: {
    texts: {
      en: { a: 'an audience', the: 'audience', many: 'audiences' },
      de: { a: 'eine Zielgruppe', of: 'der Zielgruppe', many: 'Zielgruppen' },
    },
  },
};

@EventTaxonomy(AUDIENCES)
export class AudiencesModule {}
