import { Body, Controller, Delete, Get, Post, Query } from '@nestjs/common';
import { PathId } from '../../src/common/http/rest-routes';
import { BooleanField, IdListField, IntegerField, StringField } from '../../src/common/validation/fields';

class EchoDto {
  @IdListField({ description: { en: 'ids', de: 'IDs' } })
  ids?: number[];

  @BooleanField({ description: { en: 'flag', de: 'Schalter' } })
  flag?: boolean;

  @IntegerField({ description: { en: 'number', de: 'Zahl' }, min: 1, max: 10 })
  n?: number;

  @StringField({ description: { en: 'name', de: 'Name' }, maxLength: 5 })
  name?: string;
}

class RequiredDto {
  @StringField({ description: { en: 'title', de: 'Titel' }, required: true, notEmpty: true })
  title!: string;

  @StringField({ description: { en: 'start', de: 'Beginn' }, required: true })
  start!: string;

  @IntegerField({ description: { en: 'number', de: 'Zahl' } })
  n?: number;
}

/** A route that echoes what the request pipeline made of its parameters; only mounted in tests. */
@Controller('cal/events/v1/test-echo')
export class EchoController {
  @Get()
  read(@Query() query: EchoDto): EchoDto {
    return query;
  }

  /** Two path ids and nothing else: route parameters work in any combination. */
  @Get('things/:id/parts/:part')
  parts(@PathId({ en: 'thing', de: 'Ding' }) id: number, @PathId({ en: 'part', de: 'Teil' }, 'part') part: number) {
    return { id, part };
  }

  @Post()
  write(@Body() body: EchoDto): EchoDto {
    return body;
  }

  @Delete()
  remove(@Query() query: EchoDto): EchoDto {
    return query;
  }

  @Post('required')
  required(@Body() body: RequiredDto): RequiredDto {
    return body;
  }
}
