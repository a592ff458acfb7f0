import { Body, Delete, Get, Param, Post, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { RequiresCapability } from '../../auth/requires-capability.decorator';
import { docText } from '../../common/i18n/doc-text';
import { NAMESPACE } from '../../common/http/namespace';
import { Ctx, type RequestContext } from '../../common/http/request-context';
import { PathId, PathSlug, RestController, UpdateRoute } from '../../common/http/rest-routes';
import type { ListResponse } from '../../common/pagination/pagination';
import { DeletePostQueryDto } from '../../core/posts/dto/delete-post-query.dto';
import { byId, bySlug } from '../../core/posts/post-ref';
import { CreateOrganizerDto } from './dto/create-organizer.dto';
import { ListOrganizersQueryDto } from './dto/list-organizers-query.dto';
import { UpdateOrganizerDto } from './dto/update-organizer.dto';
import type { OrganizerObject } from './organizer.mapper';
import { OrganizersService } from './organizers.service';

const ORGANIZER_ID = { en: 'Unique identifier of the organizer.', de: 'Eindeutige ID des Veranstalters.' };
const ORGANIZER_SLUG = { en: 'The organizer slug.', de: 'Der Slug des Veranstalters.' };

@ApiTags('organizers')
@RestController(`${NAMESPACE}/organizers`)
export class OrganizersController {
  constructor(private readonly organizers: OrganizersService) {}

  @Get()
  @ApiOperation({ summary: docText({ en: 'List organizers.', de: 'Veranstalter auflisten.' }) })
  list(@Query() query: ListOrganizersQueryDto, @Ctx() ctx: RequestContext): Promise<ListResponse> {
    return this.organizers.list(query, ctx);
  }

  @Post()
  @RequiresCapability('edit_posts', 'organizer')
  @ApiOperation({ summary: docText({ en: 'Create an organizer.', de: 'Einen Veranstalter anlegen.' }) })
  create(@Body() dto: CreateOrganizerDto, @Ctx() ctx: RequestContext): Promise<OrganizerObject> {
    return this.organizers.create(dto, ctx);
  }

  @Get(':id')
  @ApiOperation({ summary: docText({ en: 'Read an organizer.', de: 'Einen Veranstalter lesen.' }) })
  get(@PathId(ORGANIZER_ID) id: number, @Ctx() ctx: RequestContext): Promise<OrganizerObject> {
    return this.organizers.get(byId(id), ctx);
  }

  @UpdateRoute(':id')
  @RequiresCapability('edit_posts', 'organizer')
  @ApiOperation({ summary: docText({ en: 'Update an organizer.', de: 'Einen Veranstalter ändern.' }) })
  update(
    @PathId(ORGANIZER_ID) id: number,
    @Body() dto: UpdateOrganizerDto,
    @Ctx() ctx: RequestContext,
  ): Promise<OrganizerObject> {
    return this.organizers.update(byId(id), dto, ctx);
  }

  @Delete(':id')
  @RequiresCapability('delete_posts', 'organizer')
  @ApiOperation({ summary: docText({ en: 'Trash or delete an organizer.', de: 'Einen Veranstalter löschen.' }) })
  delete(
    @PathId(ORGANIZER_ID) id: number,
    @Query() query: DeletePostQueryDto,
    @Ctx() ctx: RequestContext,
  ): Promise<OrganizerObject> {
    return this.organizers.delete(byId(id), query.force ?? false, ctx);
  }

  @Get('by-slug/:slug')
  @PathSlug(ORGANIZER_SLUG)
  @ApiOperation({ summary: docText({ en: 'Read an organizer by slug.', de: 'Einen Veranstalter per Slug lesen.' }) })
  getBySlug(@Param('slug') slug: string, @Ctx() ctx: RequestContext): Promise<OrganizerObject> {
    return this.organizers.get(bySlug(slug), ctx);
  }

  @UpdateRoute('by-slug/:slug')
  @PathSlug(ORGANIZER_SLUG)
  @RequiresCapability('edit_posts', 'organizer')
  @ApiOperation({ summary: docText({ en: 'Update an organizer by slug.', de: 'Einen Veranstalter per Slug ändern.' }) })
  updateBySlug(
    @Param('slug') slug: string,
    @Body() dto: UpdateOrganizerDto,
    @Ctx() ctx: RequestContext,
  ): Promise<OrganizerObject> {
    return this.organizers.update(bySlug(slug), dto, ctx);
  }

  @Delete('by-slug/:slug')
  @PathSlug(ORGANIZER_SLUG)
  @RequiresCapability('delete_posts', 'organizer')
  @ApiOperation({
    summary: docText({ en: 'Trash or delete an organizer by slug.', de: 'Einen Veranstalter per Slug löschen.' }),
  })
  deleteBySlug(
    @Param('slug') slug: string,
    @Query() query: DeletePostQueryDto,
    @Ctx() ctx: RequestContext,
  ): Promise<OrganizerObject> {
    return this.organizers.delete(bySlug(slug), query.force ?? false, ctx);
  }
}
