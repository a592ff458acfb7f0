import { Body, Delete, Get, Inject, Post, Query, type Type } from '@nestjs/common';
import { ApiOperation } from '@nestjs/swagger';
import { RequiresCapability } from '../../../../auth/requires-capability.decorator';
import { NAMESPACE } from '../../../../common/http/namespace';
import { Ctx, type RequestContext } from '../../../../common/http/request-context';
import { PathId, finishGeneratedController, UpdateRoute } from '../../../../common/http/rest-routes';
import { docText } from '../../../../common/i18n/doc-text';
import type { ListResponse } from '../../../../common/pagination/pagination';
import type { EventChildEntity, EventChildResourceDefinition } from './event-child-resource';
import type { EventChildService } from './event-child.service';
import { EventChildListQueryDto, EventChildReadQueryDto } from './event-child-query.dto';

const EVENT = { en: 'The event ID.', de: 'Die ID der Veranstaltung.' };
const capitalise = (text: string): string => text.charAt(0).toUpperCase() + text.slice(1);

/** The DI token of a child resource's service. */
export const childServiceToken = (path: string): string => `event-child-service:${path}`;

/**
 * The routes of a child resource: list and create under `/events/{id}/<path>`, read, update (POST/PUT/PATCH)
 * and delete `/events/{id}/<path>/{child}`. Writes need `edit_posts` (an edit of the event), then the event's
 * own rule. One class per resource, named after its path.
 */
export function createEventChildController(def: EventChildResourceDefinition<EventChildEntity, object, object>): Type {
  const { en, de } = def.texts;
  const summary = (english: string, german: string) => ({ summary: docText({ en: english, de: german }) });
  const child = { en: `The ${def.noun} ID.`, de: `Die ID (${def.noun}).` };

  class EventChildController {
    constructor(@Inject(childServiceToken(def.path)) private readonly service: EventChildService) {}

    @Get()
    @ApiOperation(summary(`List the ${en.many} of an event.`, `${capitalise(de.many)} einer Veranstaltung auflisten.`))
    list(
      @PathId(EVENT) id: number,
      @Query() query: EventChildListQueryDto,
      @Ctx() ctx: RequestContext,
    ): Promise<ListResponse> {
      return this.service.list(id, query, ctx);
    }

    @Post()
    @RequiresCapability('edit_posts', 'event')
    @ApiOperation(summary(`Add ${en.a} to an event.`, `${capitalise(de.a)} zu einer Veranstaltung hinzufügen.`))
    create(@PathId(EVENT) id: number, @Body() dto: object, @Ctx() ctx: RequestContext): Promise<object> {
      return this.service.create(id, dto, ctx);
    }

    @Get(':child')
    @ApiOperation(summary(`Read ${en.a}.`, `${capitalise(de.a)} lesen.`))
    get(
      @PathId(EVENT) id: number,
      @PathId(child, 'child') childId: number,
      @Query() query: EventChildReadQueryDto,
      @Ctx() ctx: RequestContext,
    ) {
      return this.service.get(id, childId, query.password, ctx);
    }

    @UpdateRoute(':child')
    @RequiresCapability('edit_posts', 'event')
    @ApiOperation(summary(`Change ${en.a}.`, `${capitalise(de.a)} ändern.`))
    update(
      @PathId(EVENT) id: number,
      @PathId(child, 'child') childId: number,
      @Body() dto: object,
      @Ctx() ctx: RequestContext,
    ): Promise<object> {
      return this.service.update(id, childId, dto, ctx);
    }

    @Delete(':child')
    @RequiresCapability('edit_posts', 'event')
    @ApiOperation(summary(`Delete ${en.a}.`, `${capitalise(de.a)} löschen.`))
    delete(@PathId(EVENT) id: number, @PathId(child, 'child') childId: number, @Ctx() ctx: RequestContext) {
      return this.service.delete(id, childId, ctx);
    }
  }

  return finishGeneratedController(EventChildController, {
    name: `Event${capitalise(def.path)}Controller`,
    tag: def.path,
    path: `${NAMESPACE}/events/:id/${def.path}`,
    paramTypes: { create: [Number, def.createDto, Object], update: [Number, Number, def.updateDto, Object] },
  });
}
