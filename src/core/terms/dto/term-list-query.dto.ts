import { PaginationQueryDto } from '../../../common/pagination/pagination-query.dto';
import {
  BooleanField,
  EnumField,
  IdListField,
  IntegerField,
  StringField,
  StringListField,
} from '../../../common/validation/fields';
import { TERM_ORDER_FIELDS, type TermOrderField } from '../terms.repository';
import { ModifiedAfterField } from '../../changes/modified-after';

/** Query of a term list (categories and tags share it; categories add `parent`). */
export class TermListQueryDto extends PaginationQueryDto {
  @StringField({
    description: {
      en: 'Limit results to terms whose name or slug contains the string.',
      de: 'Nur Begriffe, deren Name oder Slug die Zeichenkette enthält.',
    },
    maxLength: 200,
    notEmpty: true,
  })
  search?: string;

  @IdListField({
    description: { en: 'Exclude the terms with these IDs.', de: 'Begriffe mit diesen IDs ausschließen.' },
    nonEmpty: true,
  })
  exclude?: number[];

  @IdListField({
    description: { en: 'Limit results to the terms with these IDs.', de: 'Nur Begriffe mit diesen IDs.' },
    nonEmpty: true,
  })
  include?: number[];

  @EnumField({
    description: { en: 'Sort ascending or descending.', de: 'Auf- oder absteigend sortieren.' },
    values: ['asc', 'desc'],
    default: 'asc',
    caseInsensitive: true,
  })
  order?: 'asc' | 'desc';

  @EnumField({
    description: { en: 'Term attribute to sort by.', de: 'Eigenschaft, nach der sortiert wird.' },
    values: TERM_ORDER_FIELDS,
    default: 'name',
  })
  orderby?: TermOrderField;

  @BooleanField({
    description: {
      en: 'Whether to hide terms not assigned to any published post.',
      de: 'Ob Begriffe ohne veröffentlichten Beitrag ausgeblendet werden.',
    },
    default: true,
  })
  hide_empty?: boolean;

  @IntegerField({
    description: {
      en: 'Limit results to terms assigned to this post.',
      de: 'Nur Begriffe, die diesem Beitrag zugeordnet sind.',
    },
    min: 1,
  })
  post?: number;

  @IntegerField({
    description: {
      en: 'Alias of post; wins when both are given.',
      de: 'Alias für post; hat Vorrang, wenn beide angegeben sind.',
    },
    min: 1,
  })
  event?: number;

  @StringListField({
    description: { en: 'Limit results to terms with these slugs.', de: 'Nur Begriffe mit diesen Slugs.' },
    maxLength: 200,
    nonEmpty: true,
  })
  slug?: string[];

  @ModifiedAfterField()
  modified_after?: string | number;
}
