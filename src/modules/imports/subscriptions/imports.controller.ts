import { Body, Delete, Get, HttpCode, Post, Query, Req } from '@nestjs/common';
import type { Request } from 'express';
import { foregroundRequests } from '../../../common/background/foreground-requests';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { RequiresCapability } from '../../../auth/requires-capability.decorator';
import { NAMESPACE } from '../../../common/http/namespace';
import { Ctx, type RequestContext } from '../../../common/http/request-context';
import { PathId, RestController, UpdateRoute } from '../../../common/http/rest-routes';
import { docText } from '../../../common/i18n/doc-text';
import type { ListResponse } from '../../../common/pagination/pagination';
import { PaginationQueryDto } from '../../../common/pagination/pagination-query.dto';
import { CreateImportDto } from '../dto/create-import.dto';
import { RunImportQueryDto } from '../dto/run-import-query.dto';
import { ClearIgnoredQueryDto } from '../dto/clear-ignored-query.dto';
import type { ImportSummary } from '../import-summary';
import { UpdateImportDto } from '../dto/update-import.dto';
import { AcceptedResponse } from '../../../common/http/accepted-response';
import type { ImportObject, RunObject } from './import-subscription.mapper';
import { ImportSubscriptions } from './import-subscriptions.service';

const IMPORT_ID = { en: 'Unique identifier of the import subscription.', de: 'Eindeutige ID des Import-Abonnements.' };

/** `/cal/events/v1/imports`: iCalendar feeds and TEC sites imported on a schedule (docs/importing.md). */
@ApiTags('imports')
@RestController(`${NAMESPACE}/imports`)
export class ImportsController {
  constructor(private readonly imports: ImportSubscriptions) {}

  @Get()
  @RequiresCapability('manage_options', 'import')
  @ApiOperation({ summary: docText({ en: 'List import subscriptions.', de: 'Import-Abonnements auflisten.' }) })
  list(@Query() query: PaginationQueryDto, @Ctx() ctx: RequestContext): Promise<ListResponse> {
    return this.imports.list(query.page, query.per_page, ctx);
  }

  @Post()
  @RequiresCapability('manage_options', 'import')
  @ApiOperation({
    summary: docText({
      en: 'Subscribe to an iCalendar feed or a TEC site.',
      de: 'Einen iCalendar-Feed oder eine TEC-Website abonnieren.',
    }),
  })
  create(@Body() dto: CreateImportDto, @Ctx() ctx: RequestContext): Promise<ImportObject> {
    return this.imports.create(dto, ctx);
  }

  @Get(':id')
  @RequiresCapability('manage_options', 'import')
  @ApiOperation({ summary: docText({ en: 'Read an import subscription.', de: 'Ein Import-Abonnement lesen.' }) })
  get(@PathId(IMPORT_ID) id: number, @Ctx() ctx: RequestContext): Promise<ImportObject> {
    return this.imports.get(id, ctx);
  }

  @UpdateRoute(':id')
  @RequiresCapability('manage_options', 'import')
  @ApiOperation({ summary: docText({ en: 'Change an import subscription.', de: 'Ein Import-Abonnement ändern.' }) })
  update(
    @PathId(IMPORT_ID) id: number,
    @Body() dto: UpdateImportDto,
    @Ctx() ctx: RequestContext,
  ): Promise<ImportObject> {
    return this.imports.update(id, dto, ctx);
  }

  @Delete(':id')
  @RequiresCapability('manage_options', 'import')
  @ApiOperation({
    summary: docText({
      en: 'Delete an import subscription and its runs; what it imported stays.',
      de: 'Ein Import-Abonnement und seine Läufe löschen; das Importierte bleibt.',
    }),
  })
  delete(@PathId(IMPORT_ID) id: number, @Ctx() ctx: RequestContext): Promise<ImportObject> {
    return this.imports.delete(id, ctx);
  }

  @Post(':id/run')
  @HttpCode(200)
  @RequiresCapability('manage_options', 'import')
  @ApiOperation({
    summary: docText({
      en: 'Run an import now: 202 with the run as started, or 200 with the finished run when `wait=true` (409 while one is running).',
      de: 'Einen Import jetzt ausführen: 202 mit dem begonnenen Lauf, oder 200 mit dem beendeten Lauf bei `wait=true` (409, solange einer läuft).',
    }),
  })
  async run(
    @PathId(IMPORT_ID) id: number,
    @Query() query: RunImportQueryDto,
    @Ctx() ctx: RequestContext,
    @Req() req: Request,
  ): Promise<RunObject | AcceptedResponse> {
    const { run, finished } = await this.imports.startNow(id);
    // Waiting for the run makes this request background work: its records must not wait for it.
    if (query.wait) {
      foregroundRequests.toBackground(req);
      return finished;
    }
    return new AcceptedResponse(run, `${ctx.namespaceUrl}/imports/${id}/runs/${run.id}`);
  }

  @Post(':id/preview')
  @HttpCode(200)
  @RequiresCapability('manage_options', 'import')
  @ApiOperation({
    summary: docText({
      en: 'What a run would do now, changing nothing: the counts and each record it would create, update or trash (`preview`). 409 while a run goes on.',
      de: 'Was ein Lauf jetzt täte, ohne etwas zu ändern: die Zahlen und jeder Eintrag, den er anlegen, ändern oder in den Papierkorb verschieben würde (`preview`). 409, solange ein Lauf läuft.',
    }),
  })
  preview(@PathId(IMPORT_ID) id: number, @Ctx() ctx: RequestContext, @Req() req: Request): Promise<ImportSummary> {
    void ctx;
    // A whole source read and rolled back: background work, which other requests' records must not wait for.
    foregroundRequests.toBackground(req);
    return this.imports.preview(id);
  }

  @Get(':id/ignored')
  @RequiresCapability('manage_options', 'import')
  @ApiOperation({
    summary: docText({
      en: 'List the records the source’s runs do not import: those an ignore rule matches, and those trashed or deleted here after they were imported.',
      de: 'Die Einträge auflisten, die die Läufe der Quelle nicht importieren: die, auf die eine Ignorier-Regel passt, und die, die hier nach dem Import gelöscht oder in den Papierkorb verschoben wurden.',
    }),
  })
  ignored(
    @PathId(IMPORT_ID) id: number,
    @Query() query: PaginationQueryDto,
    @Ctx() ctx: RequestContext,
  ): Promise<ListResponse> {
    return this.imports.ignoredList(id, query.page, query.per_page, ctx);
  }

  @Delete(':id/ignored')
  @RequiresCapability('manage_options', 'import')
  @ApiOperation({
    summary: docText({
      en: 'Clear the list of ignored records (or one, `source_id`): the next run imports what no ignore rule matches.',
      de: 'Die Liste der ignorierten Einträge leeren (oder einen, `source_id`): der nächste Lauf importiert, worauf keine Ignorier-Regel passt.',
    }),
  })
  clearIgnored(
    @PathId(IMPORT_ID) id: number,
    @Query() query: ClearIgnoredQueryDto,
    @Ctx() ctx: RequestContext,
  ): Promise<{ cleared: number }> {
    void ctx;
    return this.imports.clearIgnored(id, query.source_id);
  }

  @Get(':id/runs')
  @RequiresCapability('manage_options', 'import')
  @ApiOperation({
    summary: docText({
      en: 'List the runs of an import, newest first.',
      de: 'Die Läufe eines Imports auflisten, neueste zuerst.',
    }),
  })
  runs(
    @PathId(IMPORT_ID) id: number,
    @Query() query: PaginationQueryDto,
    @Ctx() ctx: RequestContext,
  ): Promise<ListResponse> {
    return this.imports.runs(id, query.page, query.per_page, ctx);
  }

  @Get(':id/runs/:run')
  @RequiresCapability('manage_options', 'import')
  @ApiOperation({ summary: docText({ en: 'Read one run of an import.', de: 'Einen Lauf eines Imports lesen.' }) })
  getRun(
    @PathId(IMPORT_ID) id: number,
    @PathId({ en: 'Unique identifier of the run.', de: 'Eindeutige ID des Laufs.' }, 'run') runId: number,
    @Ctx() ctx: RequestContext,
  ): Promise<RunObject> {
    void ctx;
    return this.imports.getRun(id, runId);
  }
}
