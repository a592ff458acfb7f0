import { Body, Delete, Get, Inject, Param, Post, Query, type Type } from '@nestjs/common';
import { CachedRead } from '../../../../common/http/response-cache/cached-read.decorator';
import { ApiOperation } from '@nestjs/swagger';
import { RequiresCapability } from '../../../../auth/requires-capability.decorator';
import { docText } from '../../../../common/i18n/doc-text';
import { NAMESPACE } from '../../../../common/http/namespace';
import { Ctx, type RequestContext } from '../../../../common/http/request-context';
import { PathId, PathSlug, finishGeneratedController, UpdateRoute } from '../../../../common/http/rest-routes';
import type { ListResponse } from '../../../../common/pagination/pagination';
import { DeletePostQueryDto } from '../../../../core/posts/dto/delete-post-query.dto';
import { byId, bySlug } from '../../../../core/posts/post-ref';
import { linkedServiceToken, type LinkedPostTypeDefinition } from './linked-post-type.definition';
import type { LinkedPostListQueryDto } from './linked-post-list-query.dto';
import type { LinkedPostTypeService } from './linked-post-type.service';

type AnyDefinition = LinkedPostTypeDefinition<{ postId: number }, object, { id: number }, object>;
type AnyService = LinkedPostTypeService<{ postId: number }, object, { id: number }, object, object>;

const capitalise = (text: string): string => text.charAt(0).toUpperCase() + text.slice(1);

/** Operation summaries and path parameter texts from the type's names, in every language. */
function textsOf(def: AnyDefinition) {
  const { en, de } = def.texts;
  const summary = (english: string, german: string) => docText({ en: english, de: german });
  return {
    list: summary(`List ${en.many}.`, `${capitalise(de.many)} auflisten.`),
    create: summary(`Create ${en.a}.`, `${capitalise(de.a)} anlegen.`),
    read: summary(`Read ${en.a}.`, `${capitalise(de.a)} lesen.`),
    update: summary(`Update ${en.a}.`, `${capitalise(de.a)} ändern.`),
    delete: summary(`Trash or delete ${en.a}.`, `${capitalise(de.a)} löschen.`),
    readBySlug: summary(`Read ${en.a} by slug.`, `${capitalise(de.a)} per Slug lesen.`),
    updateBySlug: summary(`Update ${en.a} by slug.`, `${capitalise(de.a)} per Slug ändern.`),
    deleteBySlug: summary(`Trash or delete ${en.a} by slug.`, `${capitalise(de.a)} per Slug löschen.`),
    id: { en: `Unique identifier of the ${en.the}.`, de: `Eindeutige ID ${de.of}.` },
    slug: { en: `The ${en.the} slug.`, de: `Der Slug ${de.of}.` },
  };
}

/**
 * The routes of a linked post type (contract §4.4/§4.5): list, create, and read, update (POST/PUT/PATCH)
 * and trash or delete by id and by slug, thin over its service. One class per type, named after its
 * rest base so operation ids stay unique.
 */
export function createLinkedPostTypeController(def: AnyDefinition): Type {
  const texts = textsOf(def);
  const noun = def.def.noun;

  class LinkedPostTypeController {
    constructor(@Inject(linkedServiceToken(def.def.type)) private readonly service: AnyService) {}

    @Get()
    @CachedRead()
    @ApiOperation({ summary: texts.list })
    list(@Query() query: LinkedPostListQueryDto, @Ctx() ctx: RequestContext): Promise<ListResponse> {
      return this.service.list(query, ctx);
    }

    @Post()
    @RequiresCapability('edit_posts', noun)
    @ApiOperation({ summary: texts.create })
    create(@Body() dto: object, @Ctx() ctx: RequestContext): Promise<object> {
      return this.service.create(dto, ctx);
    }

    @Get(':id')
    @CachedRead({ resource: noun })
    @ApiOperation({ summary: texts.read })
    get(@PathId(texts.id) id: number, @Ctx() ctx: RequestContext): Promise<object> {
      return this.service.get(byId(id), ctx);
    }

    @UpdateRoute(':id')
    @RequiresCapability('edit_posts', noun)
    @ApiOperation({ summary: texts.update })
    update(@PathId(texts.id) id: number, @Body() dto: object, @Ctx() ctx: RequestContext): Promise<object> {
      return this.service.update(byId(id), dto, ctx);
    }

    @Delete(':id')
    @RequiresCapability('delete_posts', noun)
    @ApiOperation({ summary: texts.delete })
    delete(@PathId(texts.id) id: number, @Query() query: DeletePostQueryDto, @Ctx() ctx: RequestContext) {
      return this.service.delete(byId(id), query.force ?? false, ctx);
    }

    @Get('by-slug/:slug')
    @CachedRead({ resource: noun })
    @PathSlug(texts.slug)
    @ApiOperation({ summary: texts.readBySlug })
    getBySlug(@Param('slug') slug: string, @Ctx() ctx: RequestContext): Promise<object> {
      return this.service.get(bySlug(slug), ctx);
    }

    @UpdateRoute('by-slug/:slug')
    @PathSlug(texts.slug)
    @RequiresCapability('edit_posts', noun)
    @ApiOperation({ summary: texts.updateBySlug })
    updateBySlug(@Param('slug') slug: string, @Body() dto: object, @Ctx() ctx: RequestContext): Promise<object> {
      return this.service.update(bySlug(slug), dto, ctx);
    }

    @Delete('by-slug/:slug')
    @PathSlug(texts.slug)
    @RequiresCapability('delete_posts', noun)
    @ApiOperation({ summary: texts.deleteBySlug })
    deleteBySlug(@Param('slug') slug: string, @Query() query: DeletePostQueryDto, @Ctx() ctx: RequestContext) {
      return this.service.delete(bySlug(slug), query.force ?? false, ctx);
    }
  }

  return finishGeneratedController(LinkedPostTypeController, {
    name: `${capitalise(def.restBase)}Controller`,
    tag: def.restBase,
    path: `${NAMESPACE}/${def.restBase}`,
    paramTypes: {
      list: [def.listQueryDto, Object],
      create: [def.createDto, Object],
      update: [Number, def.updateDto, Object],
      updateBySlug: [String, def.updateDto, Object],
    },
  });
}
