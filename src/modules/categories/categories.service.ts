import { Injectable } from '@nestjs/common';
import type { RequestContext } from '../../common/http/request-context';
import type { ListResponse } from '../../common/pagination/pagination';
import { TaxonomyTermsService } from '../../core/terms/taxonomy-terms.service';
import type { TermObject } from '../../core/terms/term.mapper';
import { CATEGORY_TAXONOMY } from './category.taxonomy';
import type { CreateCategoryDto } from './dto/create-category.dto';
import type { ListCategoriesQueryDto } from './dto/list-categories-query.dto';
import type { UpdateCategoryDto } from './dto/update-category.dto';

/** Event categories: the terms base applied to the `cal_events_cat` taxonomy. */
@Injectable()
export class CategoriesService {
  constructor(private readonly terms: TaxonomyTermsService) {}

  list(query: ListCategoriesQueryDto, ctx: RequestContext): Promise<ListResponse> {
    return this.terms.list(CATEGORY_TAXONOMY, query, ctx);
  }

  get(id: number, ctx: RequestContext): Promise<TermObject> {
    return this.terms.get(CATEGORY_TAXONOMY, id, ctx);
  }

  create(dto: CreateCategoryDto, ctx: RequestContext): Promise<TermObject> {
    return this.terms.create(CATEGORY_TAXONOMY, dto, ctx);
  }

  update(id: number, dto: UpdateCategoryDto, ctx: RequestContext): Promise<TermObject> {
    return this.terms.update(CATEGORY_TAXONOMY, id, dto, ctx);
  }

  delete(id: number, ctx: RequestContext): Promise<TermObject> {
    return this.terms.delete(CATEGORY_TAXONOMY, id, ctx);
  }
}
