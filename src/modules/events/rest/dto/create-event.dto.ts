import {
  BooleanField,
  DateTimeField,
  IntegerField,
  RecurrenceLinesField,
  StringField,
  TermReferencesField,
  TextOrNumberField,
  TimeZoneField,
  UrlField,
} from '../../../../common/validation/fields';
import { PostFieldsDto } from '../../../../core/posts/dto/post-fields.dto';
import { MAX_RECURRENCE_LINE_LENGTH, MAX_RECURRENCE_LINES } from '../../recurrence/recurrence-lines';

/** Contract §2.1, with behaviour.md §6's `password` and `post_parent`. */
export class CreateEventDto extends PostFieldsDto {
  @StringField({
    description: { en: 'The event title.', de: 'Der Titel der Veranstaltung.' },
    required: true,
    notEmpty: true,
    maxLength: 255,
  })
  title!: string;

  @StringField({
    description: {
      en: 'The event excerpt; HTML is reduced to a safe subset.',
      de: 'Der Auszug; HTML wird auf eine sichere Auswahl beschränkt.',
    },
    maxLength: 65535,
  })
  excerpt?: string;

  @TimeZoneField({
    description: {
      en: 'The event time zone: an IANA name or UTC±N; the site time zone when not given.',
      de: 'Die Zeitzone der Veranstaltung: ein IANA-Name oder UTC±N; sonst die Zeitzone der Website.',
    },
  })
  timezone?: string;

  @BooleanField({
    description: { en: 'Whether the event lasts all day.', de: 'Ob die Veranstaltung ganztägig ist.' },
    default: false,
  })
  all_day?: boolean;

  @DateTimeField({
    description: {
      en: 'The start date and time, in the event time zone.',
      de: 'Beginn (Datum und Uhrzeit), in der Zeitzone der Veranstaltung.',
    },
    required: true,
  })
  start_date!: string | number;

  @DateTimeField({
    description: {
      en: 'The end date and time, in the event time zone.',
      de: 'Ende (Datum und Uhrzeit), in der Zeitzone der Veranstaltung.',
    },
    required: true,
  })
  end_date!: string | number;

  @TextOrNumberField({
    description: {
      en: 'The cost, e.g. "15", "10 - 20", "Free" or "€12", or a list of costs such as ["0$", "20$"].',
      de: 'Die Kosten, z. B. "15", "10 - 20", "Free" oder "€12", oder eine Liste wie ["0$", "20$"].',
    },
    maxLength: 255,
  })
  cost?: string;

  @UrlField({ description: { en: 'The event website.', de: 'Die Website der Veranstaltung.' }, allowEmpty: true })
  website?: string;

  @BooleanField({ description: { en: 'Whether to show a map.', de: 'Ob eine Karte gezeigt wird.' } })
  show_map?: boolean;

  @BooleanField({ description: { en: 'Whether to show a map link.', de: 'Ob ein Kartenlink gezeigt wird.' } })
  show_map_link?: boolean;

  @BooleanField({
    description: { en: 'Whether to hide the event from lists.', de: 'Ob die Veranstaltung in Listen verborgen wird.' },
  })
  hide_from_listings?: boolean;

  @BooleanField({
    description: {
      en: 'Whether the event sticks to the top of the calendar view.',
      de: 'Ob die Veranstaltung in der Kalenderansicht oben bleibt.',
    },
  })
  sticky?: boolean;

  @BooleanField({
    description: { en: 'Whether the event is featured.', de: 'Ob die Veranstaltung hervorgehoben ist.' },
  })
  featured?: boolean;

  @TermReferencesField({
    description: {
      en: 'Event category IDs or names; unknown names create the category.',
      de: 'IDs oder Namen von Kategorien; unbekannte Namen legen die Kategorie an.',
    },
  })
  categories?: (number | string)[];

  @TermReferencesField({
    description: {
      en: 'Tag IDs or names; unknown names create the tag.',
      de: 'IDs oder Namen von Schlagwörtern; unbekannte Namen legen das Schlagwort an.',
    },
  })
  tags?: (number | string)[];

  @StringField({
    description: {
      en: 'A password readers must give; empty removes it.',
      de: 'Ein Passwort, das Lesende angeben müssen; leer entfernt es.',
    },
    maxLength: 255,
  })
  password?: string;

  @IntegerField({
    description: {
      en: 'The parent event ID (a festival of this session); 0 detaches.',
      de: 'Die ID der übergeordneten Veranstaltung; 0 löst die Verbindung.',
    },
    min: 0,
  })
  post_parent?: number;

  @RecurrenceLinesField({
    description: {
      en: "Makes the event a series (behaviour.md §11): RFC 5545 RRULE, RDATE and EXDATE lines; dates without TZID are in the event's time zone. The event is the first occurrence; null or [] on the first occurrence ends the series.",
      de: 'Macht die Veranstaltung zur Serie (behaviour.md §11): RFC-5545-Zeilen RRULE, RDATE und EXDATE; Zeiten ohne TZID gelten in der Zeitzone der Veranstaltung. Die Veranstaltung ist der erste Termin; null oder [] am ersten Termin beendet die Serie.',
    },
    maxItems: MAX_RECURRENCE_LINES,
    maxLength: MAX_RECURRENCE_LINE_LENGTH,
  })
  recurrence?: string[];
}
