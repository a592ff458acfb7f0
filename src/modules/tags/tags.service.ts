import { Injectable } from '@nestjs/common';
import type { RequestContext } from '../../common/http/request-context';
import type { ListResponse } from '../../common/pagination/pagination';
import { TaxonomyTermsService } from '../../core/terms/taxonomy-terms.service';
import type { TermObject } from '../../core/terms/term.mapper';
import { TAG_TAXONOMY } from './tag.taxonomy';
import type { CreateTagDto } from './dto/create-tag.dto';
import type { ListTagsQueryDto } from './dto/list-tags-query.dto';
import type { UpdateTagDto } from './dto/update-tag.dto';

/** Event tags: the terms base applied to the flat `post_tag` taxonomy. */
@Injectable()
export class TagsService {
  constructor(private readonly terms: TaxonomyTermsService) {}

  list(query: ListTagsQueryDto, ctx: RequestContext): Promise<ListResponse> {
    return this.terms.list(TAG_TAXONOMY, query, ctx);
  }

  get(id: number, ctx: RequestContext): Promise<TermObject> {
    return this.terms.get(TAG_TAXONOMY, id, ctx);
  }

  create(dto: CreateTagDto, ctx: RequestContext): Promise<TermObject> {
    return this.terms.create(TAG_TAXONOMY, dto, ctx);
  }

  update(id: number, dto: UpdateTagDto, ctx: RequestContext): Promise<TermObject> {
    return this.terms.update(TAG_TAXONOMY, id, dto, ctx);
  }

  delete(id: number, ctx: RequestContext): Promise<TermObject> {
    return this.terms.delete(TAG_TAXONOMY, id, ctx);
  }
}
