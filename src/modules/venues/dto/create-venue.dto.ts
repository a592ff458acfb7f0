import { BooleanField, StringField, UrlField } from '../../../common/validation/fields';
import { PostFieldsDto } from '../../../core/posts/dto/post-fields.dto';

const text = (en: string, de: string, maxLength: number) => StringField({ description: { en, de }, maxLength });

/** Contract §2.2. `""` clears a field on update. */
export class CreateVenueDto extends PostFieldsDto {
  @StringField({
    description: { en: 'The venue name.', de: 'Der Name des Veranstaltungsorts.' },
    required: true,
    notEmpty: true,
    maxLength: 255,
  })
  venue!: string;

  @text('The street address.', 'Die Straßenanschrift.', 255)
  address?: string;

  @text('The city.', 'Der Ort.', 100)
  city?: string;

  @text('The country.', 'Das Land.', 100)
  country?: string;

  @text('The province (outside the US).', 'Die Provinz (außerhalb der USA).', 100)
  province?: string;

  @text('The state (in the US).', 'Der Bundesstaat (in den USA).', 100)
  state?: string;

  @text('The postal code.', 'Die Postleitzahl.', 20)
  zip?: string;

  @text('The phone number.', 'Die Telefonnummer.', 50)
  phone?: string;

  @text(
    'State or province; derived from them when not given.',
    'Bundesstaat oder Provinz; wird daraus abgeleitet, wenn nicht angegeben.',
    100,
  )
  stateprovince?: string;

  @UrlField({ description: { en: 'The venue website.', de: 'Die Website des Veranstaltungsorts.' }, allowEmpty: true })
  website?: string;

  @BooleanField({
    description: {
      en: 'Whether events at this venue show a map.',
      de: 'Ob Veranstaltungen an diesem Ort eine Karte zeigen.',
    },
  })
  show_map?: boolean;

  @BooleanField({
    description: {
      en: 'Whether events at this venue show a map link.',
      de: 'Ob Veranstaltungen an diesem Ort einen Kartenlink zeigen.',
    },
  })
  show_map_link?: boolean;
}
