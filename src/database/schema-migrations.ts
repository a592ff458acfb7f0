import { Injectable, type OnModuleInit } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { AppConfig } from '../config/app-config';
import { appliedMigrationNames, knownMigrationNames } from './applied-migrations';

export interface SchemaState {
  applied: number;
  pending: string[];
}

/**
 * Applies the pending migrations at start (unless `DB_MIGRATIONS_RUN=false`), each in its own
 * transaction, before anything else touches the database, and remembers what it did for the start-up
 * summary; `/health/ready` asks it whether the schema is current.
 */
@Injectable()
export class SchemaMigrations implements OnModuleInit {
  appliedAtStart: string[] = [];

  constructor(
    private readonly dataSource: DataSource,
    private readonly config: AppConfig,
  ) {}

  async onModuleInit(): Promise<void> {
    if (!this.config.migrationsRun) return;
    this.appliedAtStart = (await this.dataSource.runMigrations({ transaction: 'each' })).map((m) => m.name);
  }

  async state(): Promise<SchemaState> {
    const applied = new Set(await appliedMigrationNames(this.dataSource));
    return {
      applied: applied.size,
      pending: knownMigrationNames(this.dataSource).filter((name) => !applied.has(name)),
    };
  }
}
