import { StringField } from '../../../common/validation/fields';

/** `DELETE /imports/{id}/ignored`: the whole list, or one record of it. */
export class ClearIgnoredQueryDto {
  @StringField({
    description: {
      en: 'Only this record, by its id in the source as the list names it (`event:52`); the whole list when not given.',
      de: 'Nur dieser Eintrag, nach seiner ID in der Quelle, wie die Liste sie nennt (`event:52`); ohne Angabe die ganze Liste.',
    },
    maxLength: 191,
    notEmpty: true,
  })
  source_id?: string;
}
