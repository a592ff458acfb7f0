import { Controller, Get } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { DataSource } from 'typeorm';
import { DomainError } from '../common/errors/domain-error';
import { docText } from '../common/i18n/doc-text';
import { DatabaseContext } from '../database/database-context';
import { SchemaMigrations } from '../database/schema-migrations';
import { WriteTransactions } from '../database/write-transactions';
import { serviceVersion } from './version';
import { SharedRedis } from '../common/redis/shared-redis';
import { ReplicaHealth } from '../database/replica-health';

interface ReadyBody {
  /** `degraded`: serving, but the shared Redis is down (limits per instance, short credential caching). */
  status: 'ok' | 'degraded';
  version: string;
  database: { status: 'up'; type: string };
  migrations: { applied: number; pending: string[] };
  /** Absent without `REDIS_URL`. */
  redis?: { status: 'up' | 'down' };
  /** Absent without `DATABASE_READ_URLS`; `down`: reads go to the primary meanwhile. */
  replicas?: { status: 'up' | 'down' };
}

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
    private readonly schema: SchemaMigrations,
    private readonly redis: SharedRedis,
    private readonly replicas: ReplicaHealth,
  ) {}

  @Get()
  @ApiOperation({
    summary: docText({
      en: 'Liveness: the process answers. Does not touch the database, so an outage there does not get the service restarted.',
      de: 'Lebenszeichen: der Prozess antwortet. Berührt die Datenbank nicht, damit ein Ausfall dort keinen Neustart des Dienstes auslöst.',
    }),
  })
  live(): { status: 'ok'; version: string; uptime_seconds: number } {
    return { status: 'ok', version: serviceVersion(), uptime_seconds: Math.round(process.uptime()) };
  }

  @Get('ready')
  @ApiOperation({
    summary: docText({
      en: 'Readiness: the database answers a read, accepts a write (a full disk or a read-only server fail this) and has every migration applied. 503 otherwise.',
      de: 'Bereitschaft: die Datenbank beantwortet eine Leseabfrage, nimmt Schreibzugriffe an (eine volle Platte oder ein schreibgeschützter Server lassen dies scheitern) und hat alle Migrationen angewandt. Sonst 503.',
    }),
  })
  async ready(): Promise<ReadyBody> {
    const type = this.dataSource.options.type;
    const version = serviceVersion();
    for (const probe of ['read', 'write'] as const) {
      if (!(await this.passes(probe))) {
        throw new DomainError('service_unavailable', {
          data: { version, database: { status: 'down', type, failed: probe } },
        });
      }
    }
    const { applied, pending } = await this.schema.state();
    if (pending.length > 0) {
      throw new DomainError('service_unavailable', {
        data: { version, database: { status: 'up', type }, migrations: { applied, pending } },
      });
    }
    const redis = this.redis.configured ? { redis: { status: this.redis.available ? 'up' : 'down' } as const } : {};
    const replicasDown = this.db.hasReplicas && !this.replicas.available;
    const replicas = this.db.hasReplicas ? { replicas: { status: replicasDown ? 'down' : 'up' } as const } : {};
    return {
      // Still ready while Redis or the replicas are down: the service keeps serving without them (scaling.md).
      status: (this.redis.configured && !this.redis.available) || replicasDown ? 'degraded' : 'ok',
      version,
      database: { status: 'up', type },
      migrations: { applied, pending },
      ...redis,
      ...replicas,
    };
  }
  private async passes(probe: Probe): Promise<boolean> {
    const work =
      probe === 'read'
        ? this.dataSource.query('SELECT 1')
        : this.transactions.run(
            () =>
              this.db.manager
                .createQueryBuilder()
                .update('write_locks')
                .set({ generation: () => '1 - generation' })
                .where('id = :id', { id: PROBE_ROW })
                .execute(),
            { content: false },
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
