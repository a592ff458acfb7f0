import { Body, Delete, Get, Inject, Post, Query, type Type } from '@nestjs/common';
import { ApiOperation } from '@nestjs/swagger';
import { RequiresCapability } from '../../auth/requires-capability.decorator';
import { NAMESPACE } from '../../common/http/namespace';
import { Ctx, type RequestContext } from '../../common/http/request-context';
import { CachedRead } from '../../common/http/response-cache/cached-read.decorator';
import { PathId, finishGeneratedController, UpdateRoute } from '../../common/http/rest-routes';
import { docText } from '../../common/i18n/doc-text';
import type { ListResponse } from '../../common/pagination/pagination';
import type { TermListQueryDto } from './dto/term-list-query.dto';
import type { TermWriteDto } from './dto/term-write.dto';
import { CreateFlatTermDto, ListFlatTermsQueryDto, UpdateFlatTermDto } from './dto/flat-term.dto';
import {
  CreateHierarchicalTermDto,
  ListHierarchicalTermsQueryDto,
  UpdateHierarchicalTermDto,
} from './dto/hierarchical-term.dto';
import { TaxonomyTermsService } from './taxonomy-terms.service';
import type { TaxonomyDefinition } from './taxonomy.registry';
import type { TermObject } from './term.mapper';

/** A taxonomy's names in operation summaries: "a category", "the category", "categories". */
export interface TaxonomyTexts {
  en: { a: string; the: string; many: string };
  de: { a: string; of: string; many: string };
}

/**
 * What a taxonomy's routes need besides its definition: its names, and its DTOs when it takes more than the
 * base's (a flat taxonomy's or a hierarchical one's, by its definition, when left out).
 */
export interface TaxonomyRoutesSpec {
  createDto?: Type<TermWriteDto>;
  updateDto?: Type<Partial<TermWriteDto>>;
  listQueryDto?: Type<TermListQueryDto>;
  texts: TaxonomyTexts;
}

const FLAT = { createDto: CreateFlatTermDto, updateDto: UpdateFlatTermDto, listQueryDto: ListFlatTermsQueryDto };
const HIERARCHICAL = {
  createDto: CreateHierarchicalTermDto,
  updateDto: UpdateHierarchicalTermDto,
  listQueryDto: ListHierarchicalTermsQueryDto,
};

const capitalise = (text: string): string => text.charAt(0).toUpperCase() + text.slice(1);

/**
 * The routes of a taxonomy (contract §4.6/§4.7): list, create, and read, update (POST/PUT/PATCH) and delete
 * by id, thin over the terms base, for categories, tags and any module's taxonomy. One class per taxonomy,
 * named after its rest base so operation ids stay unique.
 */
export function createTaxonomyController(taxonomy: TaxonomyDefinition, routes: TaxonomyRoutesSpec): Type {
  const spec = { ...(taxonomy.hierarchical ? HIERARCHICAL : FLAT), ...routes };
  const { en, de } = spec.texts;
  const summary = (english: string, german: string) => ({ summary: docText({ en: english, de: german }) });
  const id = { en: `Unique identifier of the ${en.the}.`, de: `Eindeutige ID ${de.of}.` };
  const noun = taxonomy.noun;

  class TaxonomyController {
    // (Decorated by hand below, so TypeScript records no constructor types: the token is named.)
    constructor(@Inject(TaxonomyTermsService) private readonly terms: TaxonomyTermsService) {}

    @Get()
    @CachedRead()
    @ApiOperation(summary(`List ${en.many}.`, `${capitalise(de.many)} auflisten.`))
    list(@Query() query: TermListQueryDto, @Ctx() ctx: RequestContext): Promise<ListResponse> {
      return this.terms.list(taxonomy, query, ctx);
    }

    @Post()
    @RequiresCapability('manage_categories', noun)
    @ApiOperation(summary(`Create ${en.a}.`, `${capitalise(de.a)} anlegen.`))
    create(@Body() dto: TermWriteDto, @Ctx() ctx: RequestContext): Promise<TermObject> {
      return this.terms.create(taxonomy, dto, ctx);
    }

    @Get(':id')
    @CachedRead({ resource: noun })
    @ApiOperation(summary(`Read ${en.a}.`, `${capitalise(de.a)} lesen.`))
    get(@PathId(id) termId: number, @Ctx() ctx: RequestContext): Promise<TermObject> {
      return this.terms.get(taxonomy, termId, ctx);
    }

    @UpdateRoute(':id')
    @RequiresCapability('manage_categories', noun)
    @ApiOperation(summary(`Update ${en.a}.`, `${capitalise(de.a)} ändern.`))
    update(@PathId(id) termId: number, @Body() dto: TermWriteDto, @Ctx() ctx: RequestContext): Promise<TermObject> {
      return this.terms.update(taxonomy, termId, dto, ctx);
    }

    @Delete(':id')
    @RequiresCapability('manage_categories', noun)
    @ApiOperation(summary(`Delete ${en.a} permanently.`, `${capitalise(de.a)} endgültig löschen.`))
    delete(@PathId(id) termId: number, @Ctx() ctx: RequestContext): Promise<TermObject> {
      return this.terms.delete(taxonomy, termId, ctx);
    }
  }

  return finishGeneratedController(TaxonomyController, {
    name: `${capitalise(taxonomy.restBase)}Controller`,
    tag: taxonomy.restBase,
    path: `${NAMESPACE}/${taxonomy.restBase}`,
    paramTypes: {
      list: [spec.listQueryDto, Object],
      create: [spec.createDto, Object],
      update: [Number, spec.updateDto, Object],
    },
  });
}
