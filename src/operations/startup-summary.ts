import { Inject, Injectable, Logger, type Type } from '@nestjs/common';
import { AdminBootstrap, type AdminBootstrapOutcome } from '../auth/admin-bootstrap';
import { AppConfig } from '../config/app-config';
import { describeTrustProxy } from '../config/trust-proxy';
import { parseDatabaseUrl, type TlsMode } from '../database/database-url';
import { migrationsOf } from '../database/module-migrations';
import { SchemaMigrations } from '../database/schema-migrations';
import { extensionFileOf } from '../extension-file';
import { serviceVersion } from './version';

/** DI token: the resource modules this process runs beyond the calendar's own (`CAL_EXTENSIONS`'). */
export const LOADED_EXTENSIONS = 'cal:loaded-extensions';

/** A module this process runs beyond the calendar's own: where it came from and the migrations it brings. */
export interface LoadedExtension {
  module: string;
  /** The `CAL_EXTENSIONS` entry it was exported by (absent for a module a test or an embedder passed in). */
  file?: string;
  migrations: string[];
}

export interface StartupSummaryFields {
  version: string;
  node: string;
  listen: { host: string; port: number };
  database:
    | { kind: 'sqlite'; file: string }
    | { kind: 'mysql'; host: string; port: number; socket?: string; database: string; tls: TlsMode };
  /** `derived_filled_now`: the derived stores this start filled (new, or their code changed). */
  migrations: { applied: number; applied_now: string[]; pending: number; derived_filled_now: string[] };
  admin: AdminBootstrapOutcome;
  /** Whose `X-Forwarded-For` entries are believed (TRUST_PROXY). */
  trust_proxy: string;
  extensions: LoadedExtension[];
}

/** The one line an operator reads first: what runs, where it listens, on which database, what start-up did. */
@Injectable()
export class StartupSummary {
  private readonly logger = new Logger('Startup');

  constructor(
    private readonly config: AppConfig,
    private readonly schema: SchemaMigrations,
    private readonly admin: AdminBootstrap,
    @Inject(LOADED_EXTENSIONS) private readonly modules: readonly Type[],
  ) {}

  /** The modules beyond the calendar's, each with its file and migrations. */
  extensions(): LoadedExtension[] {
    return this.modules.map((m) => {
      const file = extensionFileOf(m);
      const migrations = migrationsOf([m]).map((migration) => migration.name);
      return { module: m.name, ...(file !== undefined ? { file } : {}), migrations };
    });
  }

  async fields(listen: { host: string; port: number }): Promise<StartupSummaryFields> {
    const { applied, pending } = await this.schema.state();
    return {
      version: serviceVersion(),
      node: process.version,
      listen,
      database: describeDatabase(this.config.databaseUrl),
      migrations: {
        applied,
        applied_now: this.schema.appliedAtStart,
        pending: pending.length,
        derived_filled_now: this.schema.filledAtStart,
      },
      admin: this.admin.outcome,
      trust_proxy: describeTrustProxy(this.config.trustProxy),
      extensions: this.extensions(),
    };
  }

  async log(listen: { host: string; port: number }): Promise<StartupSummaryFields> {
    const fields = await this.fields(listen);
    const where =
      fields.database.kind === 'sqlite'
        ? fields.database.file
        : `${fields.database.socket ?? `${fields.database.host}:${fields.database.port}`}/${fields.database.database}` +
          (fields.database.tls === 'DISABLED' ? '' : ` (TLS ${fields.database.tls})`);
    const slot = process.env.CAL_WORKER_SLOT;
    this.logger.log({
      msg:
        `calendar ${fields.version} listening on ${listen.host}:${listen.port}, ${fields.database.kind} ${where}, ` +
        `${fields.migrations.applied_now.length} migration(s) applied now, admin ${fields.admin}` +
        (slot ? ` (worker ${slot})` : ''),
      // Which process: in cluster mode (WEB_CONCURRENCY) each worker logs its own start.
      pid: process.pid,
      startup: fields,
    });
    if (fields.extensions.length > 0) {
      const named = fields.extensions.map(
        (e) =>
          `${e.module}${e.file !== undefined ? ` (${e.file})` : ''}: ` +
          (e.migrations.length > 0 ? `migrations ${e.migrations.join(', ')}` : 'no migrations'),
      );
      this.logger.log({ msg: `extensions loaded: ${named.join('; ')}`, extensions: fields.extensions });
    }
    if (this.config.trustProxy === true) {
      this.logger.warn(
        'TRUST_PROXY=true believes every X-Forwarded-For entry, so a client picks its own address and walks ' +
          'around the per-address login limits; set the number of proxies in front (TRUST_PROXY=1 behind one ' +
          'nginx) or their subnets (TRUST_PROXY=10.0.0.0/8)',
      );
    }
    return fields;
  }
}

/** Kind and location, never the credentials. */
export function describeDatabase(url: string): StartupSummaryFields['database'] {
  const target = parseDatabaseUrl(url);
  if (target.kind === 'sqlite') return { kind: 'sqlite', file: target.file };
  const parsed = new URL(target.url);
  const { socket, tls } = target.connection;
  return {
    kind: 'mysql',
    host: parsed.hostname,
    port: Number(parsed.port || 3306),
    ...(socket !== undefined ? { socket } : {}),
    database: target.database,
    tls: tls.mode,
  };
}
