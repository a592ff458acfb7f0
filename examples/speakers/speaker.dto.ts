import { StringField, UrlField, PartialUpdate, PostFieldsDto, LinkedPostListQueryDto } from '../../src/extend';

export class CreateSpeakerDto extends PostFieldsDto {
  @StringField({
    description: { en: 'The speaker’s name.', de: 'Der Name der Person.' },
    required: true,
    notEmpty: true,
    maxLength: 255,
  })
  speaker!: string;

  @StringField({ description: { en: 'Where the speaker works.', de: 'Wo die Person arbeitet.' }, maxLength: 200 })
  affiliation?: string;

  @UrlField({ description: { en: 'The speaker’s website.', de: 'Die Website der Person.' }, allowEmpty: true })
  website?: string;
}

export class UpdateSpeakerDto extends PartialUpdate(CreateSpeakerDto) {}

export class ListSpeakersQueryDto extends LinkedPostListQueryDto {}
