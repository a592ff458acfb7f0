import { Injectable, Logger, type OnApplicationShutdown } from '@nestjs/common';
import { Clock } from '../../../../common/dates/clock';
import { DIALECTS, type Dialect } from '../../../../common/http/request-context';
import { DatabaseContext } from '../../../../database/database-context';
import { formatSqlDateTime } from '../../../../database/datetime.transformer';
import { WriteTransactions } from '../../../../database/write-transactions';
import { EventDocumentBodyEntity } from './event-document-body.entity';
import { EventDocumentFormatEntity } from './event-document-format.entity';

/** How often a running instance says its format is in use. */
const HEARTBEAT_MS = 60 * 60 * 1000;
/**
 * How long after its last instance said so a format's bodies are kept: longer than any rolling deploy, and a
 * format whose instances all stopped a day ago is not coming back with the same rows still current.
 */
const RETENTION_MS = 24 * 60 * 60 * 1000;
/** Bodies deleted per statement, and per sweep at most (the next heartbeat goes on). */
const SWEEP_CHUNK = 500;
const SWEEP_MAX = 20 * SWEEP_CHUNK;

/**
 * Which stored document bodies this process reads and writes: the identity of its build and of the
 * representation's declarations (`EventDocuments` adopts it once modules have registered their fields, before
 * the first request; until then it names no body, and every read assembles its events).
 *
 * Each format in use says so in `event_document_formats` at the start and every hour; the bodies of a format
 * no instance has named for a day are swept away, so a database does not keep one body per event for every
 * build it ever ran.
 */
@Injectable()
export class DocumentFormat implements OnApplicationShutdown {
  private readonly logger = new Logger('DocumentFormat');
  private timer: NodeJS.Timeout | null = null;
  key = '';

  constructor(
    private readonly db: DatabaseContext,
    private readonly transactions: WriteTransactions,
    private readonly clock: Clock,
  ) {}

  /**
   * The format of the bodies a dialect's reads serve: the TEC alias's object differs from the native one (its
   * titles and term names HTML-escaped, its taxonomies named as TEC names them), so it has bodies of its own,
   * under the same identity with the dialect beside it. '' while no format is adopted (nothing is stored).
   */
  keyFor(dialect: Dialect): string {
    return this.key === '' || dialect === 'cal' ? this.key : `${this.key}-${dialect}`;
  }

  /** Every format this process stores bodies under. */
  private keys(): string[] {
    return DIALECTS.map((dialect) => this.keyFor(dialect));
  }

  /** Takes `key` as this process's format: records that it runs, and sweeps the bodies of formats gone. */
  async adopt(key: string): Promise<void> {
    this.key = key;
    await this.heartbeat();
    this.timer ??= setInterval(() => void this.heartbeat(), HEARTBEAT_MS).unref();
  }

  onApplicationShutdown(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  private async heartbeat(): Promise<void> {
    try {
      await this.db.outsideRequest(async () => {
        await this.sayRunning();
        await this.sweep();
      });
    } catch (error) {
      // The next heartbeat tries again; reads do not depend on it.
      this.logger.warn(`document formats not kept: ${(error as Error).message}`);
    }
  }

  private async sayRunning(): Promise<void> {
    const seenUtc = this.clock.nowSqlUtc();
    const rows = this.keys().map((format) => ({ format, seenUtc }));
    await this.transactions.run(() => this.db.upsert(EventDocumentFormatEntity, rows, ['seen_utc'], ['format']), {
      content: false,
    });
  }

  /** Deletes the bodies of formats last named before the retention, then their records. */
  async sweep(): Promise<number> {
    const before = formatSqlDateTime(new Date(this.clock.now().getTime() - RETENTION_MS));
    const gone = await this.db.manager
      .createQueryBuilder(EventDocumentFormatEntity, 'f')
      .select('f.format', 'format')
      .where('f.seen_utc < :before AND f.format NOT IN (:...mine)', { before, mine: this.keys() })
      .getRawMany<{ format: string }>();
    let deleted = 0;
    for (const { format } of gone) {
      for (;;) {
        if (deleted >= SWEEP_MAX) return deleted;
        const rows = await this.db.manager
          .createQueryBuilder(EventDocumentBodyEntity, 'b')
          .select('b.post_id', 'id')
          .where('b.format = :format', { format })
          .limit(SWEEP_CHUNK)
          .getRawMany<{ id: number | string }>();
        if (rows.length === 0) break;
        await this.transactions.run(
          () =>
            this.db.manager
              .createQueryBuilder()
              .delete()
              .from(EventDocumentBodyEntity)
              .where('format = :format AND post_id IN (:...ids)', { format, ids: rows.map((r) => Number(r.id)) })
              .execute(),
          { content: false },
        );
        deleted += rows.length;
      }
      await this.transactions.run(
        () =>
          this.db.manager
            .createQueryBuilder()
            .delete()
            .from(EventDocumentFormatEntity)
            .where('format = :format AND seen_utc < :before', { format, before })
            .execute(),
        { content: false },
      );
    }
    return deleted;
  }
}
