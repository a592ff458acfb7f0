import { EmailField, StringField, UrlField } from '../../../common/validation/fields';
import { PostFieldsDto } from '../../../core/posts/dto/post-fields.dto';

/** Contract §2.3. `""` clears a field on update. */
export class CreateOrganizerDto extends PostFieldsDto {
  @StringField({
    description: { en: 'The organizer name.', de: 'Der Name des Veranstalters.' },
    required: true,
    notEmpty: true,
    maxLength: 255,
  })
  organizer!: string;

  @StringField({ description: { en: 'The phone number.', de: 'Die Telefonnummer.' }, maxLength: 50 })
  phone?: string;

  @UrlField({ description: { en: 'The organizer website.', de: 'Die Website des Veranstalters.' }, allowEmpty: true })
  website?: string;

  @EmailField({ description: { en: 'The e-mail address.', de: 'Die E-Mail-Adresse.' }, allowEmpty: true })
  email?: string;
}
