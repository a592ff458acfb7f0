import { PaginationQueryDto } from '../../../../common/pagination/pagination-query.dto';
import {
  BooleanField,
  DateTimeField,
  EnumListField,
  IdListField,
  IdOrSlugListField,
  IntegerField,
  NumberField,
  StringField,
} from '../../../../common/validation/fields';
import { POST_STATUSES, type PostStatus } from '../../../../core/posts/post-status';
import { ModifiedAfterField } from '../../../../core/changes/modified-after';

const date = (en: string, de: string) => DateTimeField({ description: { en, de } });

/** Contract §4.2. */
export class ListEventsQueryDto extends PaginationQueryDto {
  @date(
    'Events that start on or after this date (default: yesterday).',
    'Veranstaltungen, die an oder nach diesem Datum beginnen (Standard: gestern).',
  )
  start_date?: string | number;

  @date(
    'Events that end on or before this date (default: 24 months ahead).',
    'Veranstaltungen, die an oder vor diesem Datum enden (Standard: in 24 Monaten).',
  )
  end_date?: string | number;

  @date('Events that start before this date.', 'Veranstaltungen, die vor diesem Datum beginnen.')
  starts_before?: string | number;

  @date('Events that start after this date.', 'Veranstaltungen, die nach diesem Datum beginnen.')
  starts_after?: string | number;

  @date('Events that end before this date.', 'Veranstaltungen, die vor diesem Datum enden.')
  ends_before?: string | number;

  @date('Events that end after this date.', 'Veranstaltungen, die nach diesem Datum enden.')
  ends_after?: string | number;

  @BooleanField({
    description: {
      en: 'Apply the date filters at the given times instead of whole days.',
      de: 'Datumsfilter zu den angegebenen Uhrzeiten statt für ganze Tage anwenden.',
    },
    default: false,
  })
  strict_dates?: boolean;

  @StringField({
    description: {
      en: 'Events whose title, excerpt or description contains every word.',
      de: 'Veranstaltungen, deren Titel, Auszug oder Beschreibung jedes Wort enthält.',
    },
    maxLength: 200,
    notEmpty: true,
  })
  search?: string;

  @IdOrSlugListField({
    description: {
      en: 'Events in any of these categories (IDs or slugs) or any category below them.',
      de: 'Veranstaltungen in einer dieser Kategorien (IDs oder Slugs) oder einer darunter.',
    },
    nonEmpty: true,
    samplesOf: 'categories',
  })
  categories?: (number | string)[];

  @IdOrSlugListField({
    description: {
      en: 'Events with any of these tags (IDs or slugs).',
      de: 'Veranstaltungen mit einem dieser Schlagwörter (IDs oder Slugs).',
    },
    nonEmpty: true,
    samplesOf: 'tags',
  })
  tags?: (number | string)[];

  @BooleanField({
    description: {
      en: 'Featured (true) or not featured (false) events.',
      de: 'Hervorgehobene (true) oder nicht hervorgehobene (false) Veranstaltungen.',
    },
  })
  featured?: boolean;

  @EnumListField({
    description: { en: 'Events with these post statuses.', de: 'Veranstaltungen mit diesen Status.' },
    values: POST_STATUSES,
    nonEmpty: true,
  })
  status?: PostStatus[];

  @BooleanField({
    description: {
      en: 'Whether the venue has geolocation data (optional module; validated, ignored).',
      de: 'Ob der Ort Geodaten hat (optionales Modul; geprüft, ignoriert).',
    },
  })
  geoloc?: boolean;

  @NumberField({
    description: {
      en: 'Venue latitude (optional module); needs geoloc_lng.',
      de: 'Breitengrad des Orts (optionales Modul); braucht geoloc_lng.',
    },
    min: -90,
    max: 90,
  })
  geoloc_lat?: number;

  @NumberField({
    description: {
      en: 'Venue longitude (optional module); needs geoloc_lat.',
      de: 'Längengrad des Orts (optionales Modul); braucht geoloc_lat.',
    },
    min: -180,
    max: 180,
  })
  geoloc_lng?: number;

  @IdListField({
    description: {
      en: 'Only events with these IDs; date filters are ignored.',
      de: 'Nur Veranstaltungen mit diesen IDs; Datumsfilter werden ignoriert.',
    },
    nonEmpty: true,
    samplesOf: 'events',
  })
  include?: number[];

  @IntegerField({
    description: {
      en: 'Events whose parent is this event.',
      de: 'Veranstaltungen, deren übergeordnete Veranstaltung diese ist.',
    },
    min: 1,
    samplesOf: 'events',
  })
  post_parent?: number;

  @IntegerField({
    description: {
      en: 'The occurrences of this series (the id of its first occurrence, as `series_id` shows it).',
      de: 'Die Termine dieser Serie (die ID ihres ersten Termins, wie `series_id` sie zeigt).',
    },
    min: 1,
    samplesOf: 'events',
  })
  series_id?: number;

  @BooleanField({
    description: {
      en: 'Events with (true) or without (false) tickets (optional module).',
      de: 'Veranstaltungen mit (true) oder ohne (false) Tickets (optionales Modul).',
    },
  })
  ticketed?: boolean;

  @ModifiedAfterField()
  modified_after?: string | number;
}
