import { StringField, UrlField } from '../../src/common/validation/fields';
import { PartialUpdate } from '../../src/common/validation/partial-update';
import { PostFieldsDto } from '../../src/core/posts/dto/post-fields.dto';
import { LinkedPostListQueryDto } from '../../src/modules/events';

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
