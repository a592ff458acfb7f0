import { TermListQueryDto } from '../../../core/terms/dto/term-list-query.dto';
import { IntegerField } from '../../../common/validation/fields';

export class ListCategoriesQueryDto extends TermListQueryDto {
  @IntegerField({
    description: {
      en: 'Limit results to terms with this parent term ID (0: top-level terms).',
      de: 'Nur Begriffe mit diesem Elternbegriff (0: oberste Ebene).',
    },
    min: 0,
  })
  parent?: number;
}
