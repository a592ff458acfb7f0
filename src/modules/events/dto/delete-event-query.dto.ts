import { StringField } from '../../../common/validation/fields';
import { DeletePostQueryDto } from '../../../core/posts/dto/delete-post-query.dto';

export class DeleteEventQueryDto extends DeletePostQueryDto {
  @StringField({
    description: {
      en: 'The event password (accepted; deleting needs the right to delete).',
      de: 'Das Passwort der Veranstaltung (wird angenommen; Löschen braucht das Löschrecht).',
    },
    maxLength: 255,
  })
  password?: string;
}
