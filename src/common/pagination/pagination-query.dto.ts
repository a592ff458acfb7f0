import { IntegerField } from '../validation/fields';

/** `page` and `per_page`, shared by every list route. Values over the configured maximum are clamped. */
export class PaginationQueryDto {
  @IntegerField({
    description: { en: 'Page of results to return.', de: 'Die zurückzugebende Ergebnisseite.' },
    min: 1,
    default: 1,
  })
  page?: number;

  @IntegerField({
    description: {
      en: 'Maximum number of items per page; larger values are clamped to the configured maximum.',
      de: 'Höchstzahl der Einträge pro Seite; größere Werte werden auf das eingestellte Maximum begrenzt.',
    },
    min: 1,
    default: 10,
  })
  per_page?: number;
}
