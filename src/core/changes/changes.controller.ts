import { Controller, Get, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { docText } from '../../common/i18n/doc-text';
import { NAMESPACE } from '../../common/http/namespace';
import { Ctx, type RequestContext } from '../../common/http/request-context';
import { ChangesService, type ChangesAnswer } from './changes.service';
import { ChangesQueryDto } from './dto/changes-query.dto';

@ApiTags('changes')
@Controller(`${NAMESPACE}/changes`)
export class ChangesController {
  constructor(private readonly changes: ChangesService) {}

  @Get()
  @ApiOperation({
    summary: docText({
      en: 'Changes since a sync token: changed records as the caller sees them now, tombstones for the rest.',
      de: 'Änderungen seit einem Sync-Token: geänderte Einträge, wie der Aufrufer sie jetzt sieht, Grabsteine für den Rest.',
    }),
  })
  list(@Query() query: ChangesQueryDto, @Ctx() ctx: RequestContext): Promise<ChangesAnswer> {
    return this.changes.changes(query, ctx);
  }
}
