import { BooleanField, EnumField, IntegerField, StringField, UrlField } from '../../../common/validation/fields';
import type { ImportKind, OverwriteRule } from '../subscriptions/import-subscription.entity';
import { ImportOptionsDto } from './import-options.dto';

/** `POST /imports`: an iCalendar feed or a TEC site to import from on a schedule, with its options. */
export class CreateImportDto extends ImportOptionsDto {
  @EnumField({
    description: {
      en: '`ical`: an iCalendar feed (.ics); `tec`: a site with The Events Calendar’s REST API.',
      de: '`ical`: ein iCalendar-Feed (.ics); `tec`: eine Website mit der REST-API von The Events Calendar.',
    },
    values: ['ical', 'tec'],
    required: true,
  })
  kind!: ImportKind;

  @UrlField({
    description: {
      en: 'The feed, or the TEC site. Loopback, private and link-local addresses are refused unless IMPORTS_ALLOW_PRIVATE=true.',
      de: 'Der Feed oder die TEC-Website. Loopback-, private und Link-Local-Adressen werden abgelehnt, außer mit IMPORTS_ALLOW_PRIVATE=true.',
    },
    required: true,
  })
  url!: string;

  @StringField({
    description: { en: 'A note for administrators.', de: 'Eine Notiz für Administratoren.' },
    maxLength: 200,
  })
  description?: string;

  @StringField({
    description: {
      en: 'The TEC site’s user (its events in every status that user may list); empty: anonymous.',
      de: 'Der Benutzer der TEC-Website (ihre Veranstaltungen in jedem Status, den er sehen darf); leer: anonym.',
    },
    maxLength: 191,
  })
  user?: string;

  @StringField({
    description: {
      en: 'That user’s application password. Never shown again.',
      de: 'Das Anwendungspasswort dieses Benutzers. Wird nie wieder angezeigt.',
    },
    maxLength: 255,
  })
  password?: string;

  @IntegerField({
    description: {
      en: 'Minutes between runs (5 to 10080); 60 when not given.',
      de: 'Minuten zwischen zwei Läufen (5 bis 10080); ohne Angabe 60.',
    },
    min: 5,
    max: 10080,
  })
  interval_minutes?: number;

  @EnumField({
    description: {
      en: '`source_wins` (default): a run overwrites what the source gives; `keep_local_edits`: a record edited here since it was last imported is left as edited.',
      de: '`source_wins` (Standard): ein Lauf überschreibt, was die Quelle liefert; `keep_local_edits`: ein hier seit dem letzten Import bearbeiteter Eintrag bleibt, wie er ist.',
    },
    values: ['source_wins', 'keep_local_edits'],
  })
  overwrite?: OverwriteRule;

  @BooleanField({
    description: {
      en: 'Whether it runs on its schedule (true by default); `POST …/run` runs it either way.',
      de: 'Ob es nach Zeitplan läuft (Standard: true); `POST …/run` startet es in jedem Fall.',
    },
  })
  enabled?: boolean;
}
