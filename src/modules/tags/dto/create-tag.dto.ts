import { ApiHideProperty } from '@nestjs/swagger';
import { Allow } from 'class-validator';
import { TermWriteDto } from '../../../core/terms/dto/term-write.dto';

export class CreateTagDto extends TermWriteDto {
  /** Not a tag field; kept (undocumented) only so that sending it is refused with `rest_taxonomy_not_hierarchical`. */
  @ApiHideProperty()
  @Allow()
  parent?: unknown;
}
