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
import { CreateVenueDto } from './dto/create-venue.dto';
import { ListVenuesQueryDto } from './dto/list-venues-query.dto';
import { UpdateVenueDto } from './dto/update-venue.dto';
import type { VenueObject } from './venue.mapper';
import { VenuesService } from './venues.service';

const VENUE_ID = { en: 'Unique identifier of the venue.', de: 'Eindeutige ID des Veranstaltungsorts.' };
const VENUE_SLUG = { en: 'The venue slug.', de: 'Der Slug des Veranstaltungsorts.' };

@ApiTags('venues')
@RestController(`${NAMESPACE}/venues`)
export class VenuesController {
  constructor(private readonly venues: VenuesService) {}

  @Get()
  @ApiOperation({ summary: docText({ en: 'List venues.', de: 'Veranstaltungsorte auflisten.' }) })
  list(@Query() query: ListVenuesQueryDto, @Ctx() ctx: RequestContext): Promise<ListResponse> {
    return this.venues.list(query, ctx);
  }

  @Post()
  @RequiresCapability('edit_posts', 'venue')
  @ApiOperation({ summary: docText({ en: 'Create a venue.', de: 'Einen Veranstaltungsort anlegen.' }) })
  create(@Body() dto: CreateVenueDto, @Ctx() ctx: RequestContext): Promise<VenueObject> {
    return this.venues.create(dto, ctx);
  }

  @Get(':id')
  @ApiOperation({ summary: docText({ en: 'Read a venue.', de: 'Einen Veranstaltungsort lesen.' }) })
  get(@PathId(VENUE_ID) id: number, @Ctx() ctx: RequestContext): Promise<VenueObject> {
    return this.venues.get(byId(id), ctx);
  }

  @UpdateRoute(':id')
  @RequiresCapability('edit_posts', 'venue')
  @ApiOperation({ summary: docText({ en: 'Update a venue.', de: 'Einen Veranstaltungsort ändern.' }) })
  update(@PathId(VENUE_ID) id: number, @Body() dto: UpdateVenueDto, @Ctx() ctx: RequestContext): Promise<VenueObject> {
    return this.venues.update(byId(id), dto, ctx);
  }

  @Delete(':id')
  @RequiresCapability('delete_posts', 'venue')
  @ApiOperation({ summary: docText({ en: 'Trash or delete a venue.', de: 'Einen Veranstaltungsort löschen.' }) })
  delete(
    @PathId(VENUE_ID) id: number,
    @Query() query: DeletePostQueryDto,
    @Ctx() ctx: RequestContext,
  ): Promise<VenueObject> {
    return this.venues.delete(byId(id), query.force ?? false, ctx);
  }

  @Get('by-slug/:slug')
  @PathSlug(VENUE_SLUG)
  @ApiOperation({ summary: docText({ en: 'Read a venue by slug.', de: 'Einen Veranstaltungsort per Slug lesen.' }) })
  getBySlug(@Param('slug') slug: string, @Ctx() ctx: RequestContext): Promise<VenueObject> {
    return this.venues.get(bySlug(slug), ctx);
  }

  @UpdateRoute('by-slug/:slug')
  @PathSlug(VENUE_SLUG)
  @RequiresCapability('edit_posts', 'venue')
  @ApiOperation({ summary: docText({ en: 'Update a venue by slug.', de: 'Einen Veranstaltungsort per Slug ändern.' }) })
  updateBySlug(
    @Param('slug') slug: string,
    @Body() dto: UpdateVenueDto,
    @Ctx() ctx: RequestContext,
  ): Promise<VenueObject> {
    return this.venues.update(bySlug(slug), dto, ctx);
  }

  @Delete('by-slug/:slug')
  @PathSlug(VENUE_SLUG)
  @RequiresCapability('delete_posts', 'venue')
  @ApiOperation({
    summary: docText({ en: 'Trash or delete a venue by slug.', de: 'Einen Veranstaltungsort per Slug löschen.' }),
  })
  deleteBySlug(
    @Param('slug') slug: string,
    @Query() query: DeletePostQueryDto,
    @Ctx() ctx: RequestContext,
  ): Promise<VenueObject> {
    return this.venues.delete(bySlug(slug), query.force ?? false, ctx);
  }
}
