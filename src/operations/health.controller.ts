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
import { AppConfig } from '../config/app-config';
import { StalledServerGuard } from '../database/stalled-server-guard';
import { ClockSync, type ClockReport } from '../database/clock-sync';

interface ReadyBody {
  /**
   * `degraded`: serving, but Redis is down (limits per instance, short credential caching), the replicas
   * are down or behind (reads from the primary), or the primary is down while replicas serve the reads
   * (writes answer 503).
   */
  status: 'ok' | 'degraded';
  version: string;
  database: { status: 'up' | 'down'; type: string; reads: 'up' | 'down'; writes: 'up' | 'down' };
  /** Absent while the primary is down (not known then). */
  migrations?: { applied: number; pending: string[] };
  /** Absent without `REDIS_URL`. */
  redis?: { status: 'up' | 'down' };
  /**
   * Absent without `DATABASE_READ_URLS`. `down`: none answers, `behind`: lagging more than
   * `REPLICA_MAX_LAG_SECONDS` (reads go to the primary meanwhile in both cases).
   */
  replicas?: { status: 'up' | 'down' | 'behind'; lag_seconds: number | null; max_lag_seconds: number };
  /** Absent with `CLOCK_SYNC=false`. This process's clock against the database's (corrected either way). */
  clock?: ClockReport;
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
    private readonly config: AppConfig,
    private readonly stalledServer: StalledServerGuard,
    private readonly clockSync: ClockSync,
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
      en: 'Readiness to serve: the database answers a read, accepts a write (a full disk or a read-only server fail this) and has every migration applied; with read replicas, a primary that is down while the replicas serve reads is 200 "degraded" (writes answer 503). 503 otherwise.',
      de: 'Bereitschaft: die Datenbank beantwortet eine Leseabfrage, nimmt Schreibzugriffe an (eine volle Platte oder ein schreibgeschützter Server lassen dies scheitern) und hat alle Migrationen angewandt; mit Lese-Replikaten ist ein ausgefallener Primärserver, während die Replikate Lesezugriffe bedienen, 200 „degraded“ (Schreibzugriffe antworten 503). Sonst 503.',
    }),
  })
  ready(): Promise<ReadyBody> {
    return this.readiness('serve');
  }

  @Get('ready/writes')
  @ApiOperation({
    summary: docText({
      en: 'Readiness to write: as /health/ready, but 503 whenever the primary does not accept writes, replicas or not. For a balancer that routes writes apart.',
      de: 'Bereitschaft zum Schreiben: wie /health/ready, aber 503, sobald der Primärserver keine Schreibzugriffe annimmt, mit oder ohne Replikate. Für einen Balancer, der Schreibzugriffe getrennt leitet.',
    }),
  })
  readyForWrites(): Promise<ReadyBody> {
    return this.readiness('write');
  }

  private async readiness(need: 'serve' | 'write'): Promise<ReadyBody> {
    const type = this.dataSource.options.type;
    const version = serviceVersion();
    const reads = await this.passes('read');
    const writes = reads && (await this.passes('write'));
    // With replicas, reads go on without the primary: ready to serve them, degraded.
    if (!writes && (need === 'write' || !(this.db.hasReplicas && (await this.replicas.check())))) {
      throw new DomainError('service_unavailable', {
        data: {
          version,
          database: {
            status: 'down',
            type,
            failed: reads ? 'write' : 'read',
            // The primary stopped answering (not refusing): requests are turned away until it answers again.
            ...(this.stalledServer.stalled ? { stalled: true } : {}),
          },
        },
      });
    }
    const database = {
      status: writes ? 'up' : 'down',
      type,
      reads: 'up',
      writes: writes ? 'up' : 'down',
    } as const;
    let migrations: ReadyBody['migrations'];
    if (writes) {
      const { applied, pending } = await this.schema.state();
      if (pending.length > 0) {
        throw new DomainError('service_unavailable', {
          data: { version, database: { status: 'up', type }, migrations: { applied, pending } },
        });
      }
      migrations = { applied, pending };
    }
    const redisDown = this.redis.configured && !this.redis.available;
    const redis = this.redis.configured ? { redis: { status: redisDown ? 'down' : 'up' } as const } : {};
    const replicaStatus = !this.replicas.reachable ? 'down' : this.replicas.available ? 'up' : 'behind';
    const replicas = this.db.hasReplicas
      ? {
          replicas: {
            status: replicaStatus,
            lag_seconds: this.replicas.lagSeconds,
            max_lag_seconds: this.config.replicaMaxLagSeconds,
          } as const,
        }
      : {};
    return {
      // Still ready while Redis or the replicas are down, or the primary while replicas serve reads (scaling.md).
      status: redisDown || (this.db.hasReplicas && replicaStatus !== 'up') || !writes ? 'degraded' : 'ok',
      version,
      database,
      ...(migrations ? { migrations } : {}),
      ...redis,
      ...replicas,
      ...(this.clockSync.report ? { clock: this.clockSync.report } : {}),
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
