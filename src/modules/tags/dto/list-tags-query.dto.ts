import { TermListQueryDto } from '../../../core/terms/dto/term-list-query.dto';

/** Tags are flat: the term list query without `parent`. */
export class ListTagsQueryDto extends TermListQueryDto {}
