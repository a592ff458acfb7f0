import { IntegerField, StringField, StringListField } from '../../../common/validation/fields';

/** `GET /changes`: where to continue, how many rows, which kinds. */
export class ChangesQueryDto {
  @StringField({
    description: {
      en: 'The next_token of the previous answer. Without it, the answer holds no changes and a token for "now": take it before a full download, then sync from it.',
      de: 'Das next_token der vorigen Antwort. Ohne es enthält die Antwort keine Änderungen, aber ein Token für „jetzt“: vor dem vollständigen Herunterladen holen, dann ab ihm synchronisieren.',
    },
    maxLength: 64,
    notEmpty: true,
  })
  since?: string;

  @IntegerField({
    description: {
      en: 'Maximum number of change-log rows read per answer (larger values are clamped to the configured maximum).',
      de: 'Höchstzahl der je Antwort gelesenen Protokollzeilen (größere Werte werden auf das eingestellte Maximum begrenzt).',
    },
    min: 1,
    default: 50,
  })
  per_page?: number;

  @StringListField({
    description: {
      en: 'Only changes of these resource kinds (event, venue, organizer, category, tag, or a module’s own).',
      de: 'Nur Änderungen dieser Arten (event, venue, organizer, category, tag oder die eines Moduls).',
    },
    maxLength: 32,
    nonEmpty: true,
  })
  resources?: string[];
}
