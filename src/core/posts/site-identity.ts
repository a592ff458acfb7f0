import { Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import { isUniqueViolation } from '../../common/errors/driver-errors';
import { AppConfig } from '../../config/app-config';
import { DatabaseClock } from '../../database/database-clock';
import { DatabaseContext } from '../../database/database-context';
import { WriteTransactions } from '../../database/write-transactions';

/** Hosts that name a developer's machine, not a site: never recorded as a site's identity. */
const LOCAL_HOST = /^(localhost|127\.\d+\.\d+\.\d+|\[::1\]|0\.0\.0\.0)(:\d+)?$/i;

/**
 * The host `global_id` and iCalendar UIDs are made of (`<host>?id=<id>`). Calendar clients key events by UID,
 * so it must not change when the address clients use does. In order:
 * 1. `GLOBAL_ID_HOST`, when the operator pins it (and it is recorded);
 * 2. the host recorded in `site_identity` by an earlier start;
 * 3. `PUBLIC_URL`'s host, recorded now, unless it is `localhost` or a loopback address (a first try on a laptop
 *    must not name the site for good);
 * 4. none: each request's own host, as before, with a warning at start.
 * A later `PUBLIC_URL` moves links, never the recorded identity.
 */
@Injectable()
export class SiteIdentity implements OnApplicationBootstrap {
  private readonly logger = new Logger('SiteIdentity');
  /** The recorded or pinned host; null: the request's own. */
  host: string | null = null;

  constructor(
    private readonly db: DatabaseContext,
    private readonly transactions: WriteTransactions,
    private readonly clock: DatabaseClock,
    private readonly config: AppConfig,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    let recorded: string | null;
    try {
      recorded = await this.recorded();
    } catch (error) {
      // Its migration not applied yet (DB_MIGRATIONS_RUN=false, the CLI to run them): readiness says so.
      this.logger.warn(`the site's host is not known (${(error as Error).message}): global ids follow requests`);
      return;
    }
    const pinned = this.config.globalIdHost?.toLowerCase();
    const publicHost = this.config.publicUrl ? new URL(this.config.publicUrl).host.toLowerCase() : undefined;
    if (pinned) {
      if (recorded && recorded !== pinned) {
        this.logger.warn(`GLOBAL_ID_HOST ${pinned} replaces the recorded ${recorded}: every global_id and UID changes`);
      }
      if (recorded !== pinned) await this.record(pinned, recorded !== null);
      this.host = pinned;
    } else if (recorded) {
      this.host = recorded;
      if (publicHost && publicHost !== recorded) {
        this.logger.log(
          `global_id and UIDs keep the recorded host ${recorded}; links follow PUBLIC_URL (${publicHost})`,
        );
      }
    } else if (publicHost && !LOCAL_HOST.test(publicHost)) {
      this.host = await this.record(publicHost, false);
    } else {
      this.logger.warn(
        "no site host recorded yet: global_id and iCalendar UIDs follow each request's Host until PUBLIC_URL names " +
          'the address clients use (or GLOBAL_ID_HOST pins one); set it before anyone subscribes (docs/configuration.md)',
      );
    }
  }

  private async recorded(): Promise<string | null> {
    const rows: { host: string }[] = await this.db.manager.query(
      'SELECT global_id_host AS host FROM site_identity WHERE id = 1',
    );
    return rows[0]?.host ?? null;
  }

  /** Records `host`; with several instances starting at once the first one's wins and is returned. */
  private async record(host: string, replace: boolean): Promise<string> {
    const now = await this.clock.nowSqlUtc();
    if (replace) {
      await this.transactions.single((manager) =>
        manager.query('UPDATE site_identity SET global_id_host = ?, recorded_utc = ? WHERE id = 1', [host, now]),
      );
      return host;
    }
    try {
      await this.transactions.single((manager) =>
        manager.query('INSERT INTO site_identity (id, global_id_host, recorded_utc) VALUES (1, ?, ?)', [host, now]),
      );
      return host;
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
      return (await this.recorded()) ?? host;
    }
  }
}
