import { IMAGE, str } from '../../../../common/http/post-schemas';
import type { ImageObject } from '../../../../core/posts/attachments/image.mapper';
import { IntegerField, StringField } from '../../../../common/validation/fields';
import { plainTextOf, text } from '../../ical/ical-text';
import { group } from './built-in-field';
import { as, emptyText, model, none } from './parts';

/** What the event says: its title, texts, image, place in a festival and password. */
export const CONTENT_FIELDS = group({
  title: {
    member: { schema: str, jsonLd: { property: 'name', value: (title) => title } },
    vevent: { property: 'SUMMARY', write: (title) => ({ summary: text(title) }) },
    write: {
      ...model,
      rule: StringField({
        description: { en: 'The event title.', de: 'Der Titel der Veranstaltung.' },
        required: true,
        notEmpty: true,
        maxLength: 255,
      }),
    },
  },
  description: {
    member: { schema: str, blank: emptyText, jsonLd: { property: 'description', value: (html) => html } },
    vevent: {
      property: 'DESCRIPTION',
      write: (html) => ({ description: plainTextOf(typeof html === 'string' ? html : '') || undefined }),
    },
    write: { series: 'template', stored: ({ post }) => post.content },
  },
  excerpt: {
    member: { schema: str, blank: emptyText },
    vevent: none('DESCRIPTION carries the description'),
    write: {
      series: 'template',
      stored: ({ post }) => post.excerpt,
      rule: StringField({
        description: {
          en: 'The event excerpt; HTML is reduced to a safe subset.',
          de: 'Der Auszug; HTML wird auf eine sichere Auswahl beschränkt.',
        },
        maxLength: 65535,
      }),
    },
  },
  post_parent: {
    write: {
      series: 'template',
      stored: ({ post }) => post.parentId ?? 0,
      rule: IntegerField({
        description: {
          en: 'The parent event ID (a festival of this session); 0 detaches.',
          de: 'Die ID der übergeordneten Veranstaltung; 0 löst die Verbindung.',
        },
        min: 0,
      }),
    },
  },
  slug: { member: { schema: str }, vevent: none('URL carries the page the slug names'), write: { series: 'own' } },
  image: {
    member: as<ImageObject | false>({
      schema: IMAGE,
      blank: () => false,
      jsonLd: { property: 'image', value: (image) => (image ? image.url : undefined) },
    }),
    vevent: none('calendar apps show no event images'),
    write: model,
  },
  password: {
    write: {
      ...model,
      rule: StringField({
        description: {
          en: 'A password readers must give; empty removes it.',
          de: 'Ein Passwort, das Lesende angeben müssen; leer entfernt es.',
        },
        maxLength: 255,
      }),
    },
  },
});
