import { Body, Delete, Get, Post, Query } from '@nestjs/common';
import { CATEGORY_TAXONOMY } from './category.taxonomy';
import { CachedRead } from '../../common/http/response-cache/cached-read.decorator';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { RequiresCapability } from '../../auth/requires-capability.decorator';
import { docText } from '../../common/i18n/doc-text';
import { NAMESPACE } from '../../common/http/namespace';
import { Ctx, type RequestContext } from '../../common/http/request-context';
import { PathId, RestController, UpdateRoute } from '../../common/http/rest-routes';
import type { ListResponse } from '../../common/pagination/pagination';
import type { TermObject } from '../../core/terms/term.mapper';
import { CategoriesService } from './categories.service';
import { CreateCategoryDto } from './dto/create-category.dto';
import { ListCategoriesQueryDto } from './dto/list-categories-query.dto';
import { UpdateCategoryDto } from './dto/update-category.dto';

const CATEGORY_ID = { en: 'Unique identifier of the category.', de: 'Eindeutige ID der Kategorie.' };

@ApiTags('categories')
@RestController(`${NAMESPACE}/categories`)
export class CategoriesController {
  constructor(private readonly categories: CategoriesService) {}

  @Get()
  @CachedRead()
  @ApiOperation({ summary: docText({ en: 'List event categories.', de: 'Veranstaltungskategorien auflisten.' }) })
  list(@Query() query: ListCategoriesQueryDto, @Ctx() ctx: RequestContext): Promise<ListResponse> {
    return this.categories.list(query, ctx);
  }

  @Post()
  @RequiresCapability('manage_categories', 'category')
  @ApiOperation({ summary: docText({ en: 'Create an event category.', de: 'Eine Veranstaltungskategorie anlegen.' }) })
  create(@Body() dto: CreateCategoryDto, @Ctx() ctx: RequestContext): Promise<TermObject> {
    return this.categories.create(dto, ctx);
  }

  @Get(':id')
  @CachedRead({ resource: CATEGORY_TAXONOMY.noun })
  @ApiOperation({ summary: docText({ en: 'Read an event category.', de: 'Eine Veranstaltungskategorie lesen.' }) })
  get(@PathId(CATEGORY_ID) id: number, @Ctx() ctx: RequestContext): Promise<TermObject> {
    return this.categories.get(id, ctx);
  }

  @UpdateRoute(':id')
  @RequiresCapability('manage_categories', 'category')
  @ApiOperation({ summary: docText({ en: 'Update an event category.', de: 'Eine Veranstaltungskategorie ändern.' }) })
  update(
    @PathId(CATEGORY_ID) id: number,
    @Body() dto: UpdateCategoryDto,
    @Ctx() ctx: RequestContext,
  ): Promise<TermObject> {
    return this.categories.update(id, dto, ctx);
  }

  @Delete(':id')
  @RequiresCapability('manage_categories', 'category')
  @ApiOperation({
    summary: docText({
      en: 'Delete an event category permanently.',
      de: 'Eine Veranstaltungskategorie endgültig löschen.',
    }),
  })
  delete(@PathId(CATEGORY_ID) id: number, @Ctx() ctx: RequestContext): Promise<TermObject> {
    return this.categories.delete(id, ctx);
  }
}
