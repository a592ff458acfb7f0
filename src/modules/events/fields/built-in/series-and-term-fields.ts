import { arrayOf, ref } from '../../../../common/http/post-schemas';
import type { TermObject } from '../../../../core/terms/term.mapper';
import { RecurrenceLinesField, TermReferencesField } from '../../../../common/validation/fields';
import { categoriesProperty } from '../../ical/vevent-writers';
import { MAX_RECURRENCE_LINE_LENGTH, MAX_RECURRENCE_LINES } from '../../recurrence/recurrence-lines';
import { PASSWORD_PROTECTED, RECURRENCE, SERIES_ID } from '../event-member-texts';
import { group } from './built-in-field';
import { none } from './parts';

const noTerms = (): TermObject[] => [];
const writtenOnce = "series-vevents.ts writes a series once, from its row's lines";

/** The series the event belongs to, whether it is protected, and its terms. */
export const SERIES_AND_TERM_FIELDS = group({
  series_id: { member: { schema: SERIES_ID }, vevent: { property: 'RRULE', elsewhere: writtenOnce } },
  recurrence: {
    member: { schema: RECURRENCE },
    vevent: { property: 'RRULE', elsewhere: writtenOnce },
    write: {
      series: 'lines',
      rule: RecurrenceLinesField({
        description: {
          en: "Makes the event a series (behaviour.md §11): RFC 5545 RRULE, RDATE and EXDATE lines; dates without TZID are in the event's time zone. The event is the first occurrence; null or [] on the first occurrence ends the series.",
          de: 'Macht die Veranstaltung zur Serie (behaviour.md §11): RFC-5545-Zeilen RRULE, RDATE und EXDATE; Zeiten ohne TZID gelten in der Zeitzone der Veranstaltung. Die Veranstaltung ist der erste Termin; null oder [] am ersten Termin beendet die Serie.',
        },
        maxItems: MAX_RECURRENCE_LINES,
        maxLength: MAX_RECURRENCE_LINE_LENGTH,
      }),
    },
  },
  password_protected: {
    member: { schema: PASSWORD_PROTECTED },
    vevent: none('a feed shows a protected event blanked'),
  },
  categories: {
    member: { schema: arrayOf(ref('Term')), blank: noTerms },
    vevent: { property: 'CATEGORIES', write: (terms) => categoriesProperty(terms) },
    write: {
      series: 'terms',
      rule: TermReferencesField({
        description: {
          en: 'Event category IDs or names; unknown names create the category.',
          de: 'IDs oder Namen von Kategorien; unbekannte Namen legen die Kategorie an.',
        },
      }),
    },
  },
  tags: {
    member: { schema: arrayOf(ref('Term')), blank: noTerms },
    vevent: none('CATEGORIES carries the categories'),
    write: {
      series: 'terms',
      rule: TermReferencesField({
        description: {
          en: 'Tag IDs or names; unknown names create the tag.',
          de: 'IDs oder Namen von Schlagwörtern; unbekannte Namen legen das Schlagwort an.',
        },
      }),
    },
  },
});
