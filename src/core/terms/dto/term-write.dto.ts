import { SlugField, StringField } from '../../../common/validation/fields';

/** Fields every taxonomy's create and update share. */
export class TermWriteDto {
  @StringField({
    description: { en: 'HTML title for the term.', de: 'Name des Begriffs.' },
    required: true,
    notEmpty: true,
    maxLength: 200,
  })
  name!: string;

  @StringField({
    description: { en: 'HTML description of the term.', de: 'HTML-Beschreibung des Begriffs.' },
    maxLength: 65535,
  })
  description?: string;

  @SlugField({
    description: {
      en: 'An alphanumeric identifier for the term unique to its type.',
      de: 'Eine alphanumerische Kennung des Begriffs, eindeutig in seiner Taxonomie.',
    },
  })
  slug?: string;
}
