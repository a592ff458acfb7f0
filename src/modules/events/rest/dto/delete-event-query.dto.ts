import { EnumField, StringField } from '../../../../common/validation/fields';
import { DeletePostQueryDto } from '../../../../core/posts/dto/delete-post-query.dto';
import { WRITE_SCOPES, type WriteScope } from '../../recurrence/write-scope';

export class DeleteEventQueryDto extends DeletePostQueryDto {
  @StringField({
    description: {
      en: 'The event password (accepted; deleting needs the right to delete).',
      de: 'Das Passwort der Veranstaltung (wird angenommen; Löschen braucht das Löschrecht).',
    },
    maxLength: 255,
  })
  password?: string;

  @EnumField({
    description: {
      en: 'For an occurrence of a series: `this` (the default) removes it alone (an EXDATE is added), `following` it and the later ones, `all` the whole series.',
      de: 'Für einen Termin einer Serie: `this` (Standard) entfernt nur ihn (ein EXDATE kommt hinzu), `following` ihn und die späteren, `all` die ganze Serie.',
    },
    values: WRITE_SCOPES,
    default: 'this',
  })
  scope?: WriteScope;
}
