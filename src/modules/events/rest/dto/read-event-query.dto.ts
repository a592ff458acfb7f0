import { StringField } from '../../../../common/validation/fields';

export class ReadEventQueryDto {
  @StringField({
    description: {
      en: 'The event password, for a password-protected event.',
      de: 'Das Passwort einer passwortgeschützten Veranstaltung.',
    },
    maxLength: 255,
  })
  password?: string;
}
