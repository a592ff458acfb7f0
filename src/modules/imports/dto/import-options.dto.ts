import { DayField, EnumField, IntegerField, StringListField } from '../../../common/validation/fields';
import { Transform } from 'class-transformer';
import { ValidateBy } from 'class-validator';
import { reason } from '../../../common/validation/validation-messages';
import { parseIgnoreRule, MAX_RULE_LENGTH } from '../options/ignore-rules';

/** Statuses an import may give the events it creates. */
export const IMPORT_STATUSES = ['publish', 'draft', 'pending', 'private'] as const;
export type ImportStatus = (typeof IMPORT_STATUSES)[number];

/** `trash`: records gone from the source are trashed here (terms deleted); `report`: listed, left as they are. */
export type SourceDeletions = 'trash' | 'report';

/**
 * `null` unsets the option (in an update: clears it); runs before the field's own parsing, so that only
 * absent and `null` values skip its rule.
 */
const NullClears = (): PropertyDecorator =>
  Transform(({ value }: { value: unknown }) => (value === null ? undefined : value));

/**
 * What a source's runs do besides reading it, declared once: a subscription keeps these (`POST /imports`),
 * the CLI takes them as flags (`--status`, `--category`, `--since`, …) and validates them with this class.
 */
export class ImportOptionsDto {
  @EnumField({
    description: {
      en: 'The status of the events an import creates, whatever the source says (`draft` to review them first); the source’s status when not given. An update leaves the status here alone when this is given.',
      de: 'Der Status der Veranstaltungen, die ein Import anlegt, unabhängig von der Quelle (`draft`, um sie erst zu prüfen); ohne Angabe der Status der Quelle. Eine Aktualisierung lässt den Status hier dann unverändert.',
    },
    values: IMPORT_STATUSES,
  })
  @NullClears()
  status?: ImportStatus;

  @StringListField({
    description: {
      en: 'Categories every imported event gets, by name, created when missing.',
      de: 'Kategorien, die jede importierte Veranstaltung erhält, nach Namen; fehlende werden angelegt.',
    },
    maxLength: 200,
    maxItems: 20,
  })
  categories?: string[];

  @DayField({
    description: {
      en: 'Only events that end on or after this day. A run with a window trashes nothing as gone.',
      de: 'Nur Veranstaltungen, die an oder nach diesem Tag enden. Ein Lauf mit Zeitfenster verschiebt nichts als verschwunden in den Papierkorb.',
    },
  })
  @NullClears()
  since?: string;

  @DayField({
    description: {
      en: 'Only events that start on or before this day. A run with a window trashes nothing as gone.',
      de: 'Nur Veranstaltungen, die an oder vor diesem Tag beginnen. Ein Lauf mit Zeitfenster verschiebt nichts als verschwunden in den Papierkorb.',
    },
  })
  @NullClears()
  until?: string;

  @IntegerField({
    description: {
      en: 'At most this many events per run, in the source’s order; the rest are reported as skipped, and nothing is trashed as gone.',
      de: 'Höchstens so viele Veranstaltungen je Lauf, in der Reihenfolge der Quelle; der Rest wird als übersprungen gemeldet, und nichts wird als verschwunden in den Papierkorb verschoben.',
    },
    min: 1,
    max: 1_000_000,
  })
  @NullClears()
  limit?: number;

  @EnumField({
    description: {
      en: 'Venues, organizers and terms gone from a TEC site: `trash` (default; terms, which have no trash, are deleted) or `report` (listed in the run’s notes, left here).',
      de: 'Veranstaltungsorte, Veranstalter und Begriffe, die auf einer TEC-Website fehlen: `trash` (Standard; Begriffe, die keinen Papierkorb haben, werden gelöscht) oder `report` (in den Hinweisen des Laufs genannt, hier belassen).',
    },
    values: ['trash', 'report'],
  })
  @NullClears()
  deletions?: SourceDeletions;

  @StringListField({
    description: {
      en: 'Records not to import: `event:52` or `venue:*` (ids as the run’s report names them, `*` and `?` as wildcards), `title:*webinar*` (by title; case is ignored). Each record ignored is kept in the source’s list of ignored records.',
      de: 'Nicht zu importierende Einträge: `event:52` oder `venue:*` (IDs, wie der Bericht des Laufs sie nennt, `*` und `?` als Platzhalter), `title:*webinar*` (nach Titel; Groß- und Kleinschreibung egal). Jeder ignorierte Eintrag kommt in die Liste der ignorierten Einträge der Quelle.',
    },
    maxLength: MAX_RULE_LENGTH,
    maxItems: 50,
  })
  @ValidateBy(
    {
      name: 'isIgnoreRuleList',
      validator: {
        validate: (value: unknown) =>
          !Array.isArray(value) || value.every((rule) => typeof rule !== 'string' || parseIgnoreRule(rule) !== null),
      },
    },
    { message: reason('ignore_rule') },
  )
  ignore?: string[];
}

/** The options as a run takes them, every one optional. */
export type ImportOptions = Pick<ImportOptionsDto, keyof ImportOptionsDto>;
