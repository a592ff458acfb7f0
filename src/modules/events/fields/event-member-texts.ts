import { docText } from '../../../common/i18n/doc-text';
import { str } from '../../../common/http/post-schemas';

/** The longer schemas of the event's members, with their documentation in every language. */
export const SERIES_ID = {
  type: 'integer',
  nullable: true,
  description: docText({
    en: 'The series this event is an occurrence of (the id of its first occurrence); null for a single event.',
    de: 'Die Serie, zu der dieser Termin gehört (die ID ihres ersten Termins); null bei einer einzelnen Veranstaltung.',
  }),
  example: 4107,
};

export const RECURRENCE = {
  type: 'array',
  nullable: true,
  items: str,
  description: docText({
    en: "The series' RFC 5545 lines (RRULE, RDATE, EXDATE); null for a single event.",
    de: 'Die RFC-5545-Zeilen der Serie (RRULE, RDATE, EXDATE); null bei einer einzelnen Veranstaltung.',
  }),
  example: ['RRULE:FREQ=WEEKLY;BYDAY=TU;UNTIL=20270630T235959Z', 'EXDATE;TZID=Europe/Berlin:20261229T190000'],
};

export const PASSWORD_PROTECTED = {
  type: 'boolean',
  description: docText({
    en: 'Whether the event has a password: the public reads it blanked, its editors in full.',
    de: 'Ob die Veranstaltung ein Passwort hat: die Öffentlichkeit sieht sie ausgeblendet, ihre Bearbeitenden vollständig.',
  }),
  example: false,
};
