import { ApiHideProperty } from '@nestjs/swagger';
import { Allow } from 'class-validator';
import { PartialUpdate } from '../../../common/validation/partial-update';
import { TermListQueryDto } from './term-list-query.dto';
import { TermWriteDto } from './term-write.dto';

/** A term of a flat taxonomy (tags, a module's audiences) as written. */
export class CreateFlatTermDto extends TermWriteDto {
  /** Not a field of a flat term; kept (undocumented) only so that sending it is refused with `rest_taxonomy_not_hierarchical`. */
  @ApiHideProperty()
  @Allow()
  parent?: unknown;
}

export class UpdateFlatTermDto extends PartialUpdate(CreateFlatTermDto) {}

/** A flat taxonomy's list: the term list query without `parent`. */
export class ListFlatTermsQueryDto extends TermListQueryDto {}
