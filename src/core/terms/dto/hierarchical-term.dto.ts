import { IntegerField } from '../../../common/validation/fields';
import { PartialUpdate } from '../../../common/validation/partial-update';
import { TermListQueryDto } from './term-list-query.dto';
import { TermWriteDto } from './term-write.dto';

/** A term of a hierarchical taxonomy (categories) as written. */
export class CreateHierarchicalTermDto extends TermWriteDto {
  @IntegerField({
    description: { en: 'The parent term ID (0: none).', de: 'Die ID des Elternbegriffs (0: keiner).' },
    min: 0,
  })
  parent?: number;
}

export class UpdateHierarchicalTermDto extends PartialUpdate(CreateHierarchicalTermDto) {}

export class ListHierarchicalTermsQueryDto extends TermListQueryDto {
  @IntegerField({
    description: {
      en: 'Limit results to terms with this parent term ID (0: top-level terms).',
      de: 'Nur Begriffe mit diesem Elternbegriff (0: oberste Ebene).',
    },
    min: 0,
  })
  parent?: number;
}
