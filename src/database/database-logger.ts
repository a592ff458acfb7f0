import { Logger as NestLogger } from '@nestjs/common';
import type { Logger as TypeOrmLogger } from 'typeorm';

/**
 * TypeORM's log lines, through the service's logger (JSON, one stream) and never with the values bound
 * to a statement: they may be passwords or personal data. Statements themselves are logged only when
 * `DB_LOGGING` asks for them; slow statements (past the query timeout's budget) always, at warn.
 */
export class DatabaseLogger implements TypeOrmLogger {
  private readonly logger = new NestLogger('Database');

  constructor(private readonly logStatements: boolean) {}

  logQuery(query: string): void {
    if (this.logStatements) this.logger.debug(query);
  }

  logQueryError(error: string | Error, query: string): void {
    if (this.logStatements) this.logger.warn(`${typeof error === 'string' ? error : error.message} in: ${query}`);
  }

  logQuerySlow(time: number, query: string): void {
    this.logger.warn(`slow statement (${time} ms): ${query.slice(0, 500)}`);
  }

  logSchemaBuild(message: string): void {
    if (this.logStatements) this.logger.debug(message);
  }

  logMigration(message: string): void {
    this.logger.log(message);
  }

  log(level: 'log' | 'info' | 'warn', message: unknown): void {
    if (level === 'warn') this.logger.warn(String(message));
    else this.logger.log(String(message));
  }
}
