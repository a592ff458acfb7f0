import { Controller, Get } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { DataSource } from 'typeorm';
import { DomainError } from '../common/errors/domain-error';
import { docText } from '../common/i18n/doc-text';
import { DatabaseContext } from '../database/database-context';
import { WriteTransactions } from '../database/write-transactions';

const PROBE_TIMEOUT_MS = 2000;
/** A row of `write_locks` that the probe rewrites; a row lock held for a moment, by nothing else for long. */
const PROBE_ROW = 0;

type Probe = 'read' | 'write';

@ApiTags('health')
@Controller('health')
export class HealthController {
  constructor(
    private readonly dataSource: DataSource,
    private readonly transactions: WriteTransactions,
    private readonly db: DatabaseContext,
  ) {}

  @Get()
  @ApiOperation({
    summary: docText({
      en: 'Whether the service and its database answer, and the database accepts writes (a full disk or a read-only server fail this).',
      de: 'Ob der Dienst und seine Datenbank antworten und die Datenbank Schreibzugriffe annimmt (eine volle Platte oder ein schreibgeschützter Server lassen dies scheitern).',
    }),
  })
  async check(): Promise<{ status: 'ok'; database: { status: 'up'; type: string } }> {
    const type = this.dataSource.options.type;
    for (const probe of ['read', 'write'] as const) {
      if (!(await this.passes(probe))) {
        throw new DomainError('service_unavailable', { data: { database: { status: 'down', type, failed: probe } } });
      }
    }
    return { status: 'ok', database: { status: 'up', type } };
  }

  private async passes(probe: Probe): Promise<boolean> {
    const work =
      probe === 'read'
        ? this.dataSource.query('SELECT 1')
        : this.transactions.run(() =>
            this.db.manager
              .createQueryBuilder()
              .update('write_locks')
              .set({ generation: () => '1 - generation' })
              .where('id = :id', { id: PROBE_ROW })
              .execute(),
          );
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`database ${probe} probe timed out`)), PROBE_TIMEOUT_MS);
    });
    try {
      await Promise.race([work, timeout]);
      return true;
    } catch {
      return false;
    } finally {
      clearTimeout(timer);
    }
  }
}
