import { Controller, Get } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { DataSource } from 'typeorm';
import { DomainError } from '../common/errors/domain-error';
import { docText } from '../common/i18n/doc-text';

const PROBE_TIMEOUT_MS = 2000;

@ApiTags('health')
@Controller('health')
export class HealthController {
  constructor(private readonly dataSource: DataSource) {}

  @Get()
  @ApiOperation({
    summary: docText({
      en: 'Whether the service and its database answer.',
      de: 'Ob der Dienst und seine Datenbank antworten.',
    }),
  })
  async check(): Promise<{ status: 'ok'; database: { status: 'up'; type: string } }> {
    const type = this.dataSource.options.type;
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        this.dataSource.query('SELECT 1'),
        new Promise((_, reject) => {
          timer = setTimeout(() => reject(new Error('database probe timed out')), PROBE_TIMEOUT_MS);
        }),
      ]);
    } catch {
      throw new DomainError('service_unavailable', { data: { database: { status: 'down', type } } });
    } finally {
      clearTimeout(timer);
    }
    return { status: 'ok', database: { status: 'up', type } };
  }
}
