import {
  DateTimeField,
  EnumField,
  ImageField,
  IntegerField,
  SlugField,
  StringField,
} from '../../../common/validation/fields';
import type { PostWriteInput } from '../post-write-input';
import { WRITABLE_STATUSES, type WritableStatus } from '../post-status';

/** Fields every post type's write routes accept (contract §2.1–§2.3). */
export class PostFieldsDto {
  @IntegerField({ description: { en: 'The ID of the author.', de: 'Die ID des Autors.' }, min: 1 })
  author?: number;

  @DateTimeField({
    description: {
      en: 'The publication date, in the site time zone.',
      de: 'Das Veröffentlichungsdatum, in der Zeitzone der Website.',
    },
  })
  date?: string | number;

  @DateTimeField({
    description: { en: 'The publication date, in UTC.', de: 'Das Veröffentlichungsdatum, in UTC.' },
  })
  date_utc?: string | number;

  @SlugField({
    description: {
      en: 'The slug, unique in its type (suffixed with -2, -3 … when taken); made from the name when empty.',
      de: 'Der Slug, eindeutig im Typ (mit -2, -3 … ergänzt, wenn vergeben); wird sonst aus dem Namen gebildet.',
    },
  })
  slug?: string;

  @EnumField({
    description: { en: 'The post status.', de: 'Der Status des Beitrags.' },
    values: WRITABLE_STATUSES,
  })
  status?: WritableStatus;

  @StringField({
    description: {
      en: 'The description; HTML is reduced to a safe subset.',
      de: 'Die Beschreibung; HTML wird auf eine sichere Auswahl beschränkt.',
    },
    maxLength: 65535,
  })
  description?: string;

  @ImageField({
    description: {
      en: 'The featured image: the ID of an existing image attachment or an image URL; empty removes it.',
      de: 'Das Beitragsbild: die ID eines vorhandenen Bildanhangs oder eine Bild-URL; leer entfernt es.',
    },
  })
  image?: number | string | null;
}

/** The shared post fields of a write, as the post records service takes them. */
export function postFieldsInput(dto: Partial<PostFieldsDto>): PostWriteInput {
  return {
    content: dto.description,
    slug: dto.slug,
    status: dto.status,
    date: dto.date,
    dateUtc: dto.date_utc,
    author: dto.author,
    image: dto.image,
  };
}
