import { EnumField, StringField } from '../common/validation/fields';

export class NamespaceIndexQueryDto {
  @StringField({
    description: { en: 'The namespace to describe.', de: 'Der zu beschreibende Namensraum.' },
    default: 'cal/events/v1',
  })
  namespace?: string;

  @EnumField({
    description: {
      en: 'Scope under which the request is made; determines fields present in the response.',
      de: 'Kontext der Anfrage; bestimmt die Felder der Antwort.',
    },
    values: ['view', 'edit'],
    default: 'view',
  })
  context?: 'view' | 'edit';
}
