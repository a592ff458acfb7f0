import { TermWriteDto } from '../../../core/terms/dto/term-write.dto';
import { IntegerField } from '../../../common/validation/fields';

export class CreateCategoryDto extends TermWriteDto {
  @IntegerField({
    description: { en: 'The parent term ID (0: none).', de: 'Die ID des Elternbegriffs (0: keiner).' },
    min: 0,
  })
  parent?: number;
}
