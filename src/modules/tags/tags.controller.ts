import { Body, Delete, Get, Post, Query } from '@nestjs/common';
import { TAG_TAXONOMY } from './tag.taxonomy';
import { CachedRead } from '../../common/http/response-cache/cached-read.decorator';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { RequiresCapability } from '../../auth/requires-capability.decorator';
import { docText } from '../../common/i18n/doc-text';
import { NAMESPACE } from '../../common/http/namespace';
import { Ctx, type RequestContext } from '../../common/http/request-context';
import { PathId, RestController, UpdateRoute } from '../../common/http/rest-routes';
import type { ListResponse } from '../../common/pagination/pagination';
import type { TermObject } from '../../core/terms/term.mapper';
import { CreateTagDto } from './dto/create-tag.dto';
import { ListTagsQueryDto } from './dto/list-tags-query.dto';
import { UpdateTagDto } from './dto/update-tag.dto';
import { TagsService } from './tags.service';

const TAG_ID = { en: 'Unique identifier of the tag.', de: 'Eindeutige ID des Schlagworts.' };

@ApiTags('tags')
@RestController(`${NAMESPACE}/tags`)
export class TagsController {
  constructor(private readonly tags: TagsService) {}

  @Get()
  @CachedRead()
  @ApiOperation({ summary: docText({ en: 'List event tags.', de: 'Schlagwörter auflisten.' }) })
  list(@Query() query: ListTagsQueryDto, @Ctx() ctx: RequestContext): Promise<ListResponse> {
    return this.tags.list(query, ctx);
  }

  @Post()
  @RequiresCapability('manage_categories', 'tag')
  @ApiOperation({ summary: docText({ en: 'Create an event tag.', de: 'Ein Schlagwort anlegen.' }) })
  create(@Body() dto: CreateTagDto, @Ctx() ctx: RequestContext): Promise<TermObject> {
    return this.tags.create(dto, ctx);
  }

  @Get(':id')
  @CachedRead({ resource: TAG_TAXONOMY.noun })
  @ApiOperation({ summary: docText({ en: 'Read an event tag.', de: 'Ein Schlagwort lesen.' }) })
  get(@PathId(TAG_ID) id: number, @Ctx() ctx: RequestContext): Promise<TermObject> {
    return this.tags.get(id, ctx);
  }

  @UpdateRoute(':id')
  @RequiresCapability('manage_categories', 'tag')
  @ApiOperation({ summary: docText({ en: 'Update an event tag.', de: 'Ein Schlagwort ändern.' }) })
  update(@PathId(TAG_ID) id: number, @Body() dto: UpdateTagDto, @Ctx() ctx: RequestContext): Promise<TermObject> {
    return this.tags.update(id, dto, ctx);
  }

  @Delete(':id')
  @RequiresCapability('manage_categories', 'tag')
  @ApiOperation({
    summary: docText({ en: 'Delete an event tag permanently.', de: 'Ein Schlagwort endgültig löschen.' }),
  })
  delete(@PathId(TAG_ID) id: number, @Ctx() ctx: RequestContext): Promise<TermObject> {
    return this.tags.delete(id, ctx);
  }
}
