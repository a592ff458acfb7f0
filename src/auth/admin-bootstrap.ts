import { Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { AppConfig } from '../config/app-config';
import { WriteTransactions } from '../database/write-transactions';
import { UserExistsError } from './auth-input.error';
import { normalizeApplicationPassword, verifySecret } from './secret-hashing';
import { ApplicationPasswordsService } from './application-passwords.service';
import { UsersService } from './users.service';

export const BOOTSTRAP_PASSWORD_NAME = 'bootstrap (CAL_ADMIN_PASSWORD)';

/** What start-up did with `CAL_ADMIN_LOGIN`/`CAL_ADMIN_PASSWORD`, for the start-up summary. */
export type AdminBootstrapOutcome = 'not configured' | 'created' | 'exists' | 'password changed';

/**
 * Setup without a UI: when `CAL_ADMIN_LOGIN` and `CAL_ADMIN_PASSWORD` are set and that user does not
 * exist, it is created as administrator with that application password. When the user exists and the
 * variable no longer matches its bootstrap password, the bootstrap password is replaced (an operator who
 * changes the variable and restarts means it); the user's role and other passwords are never touched.
 *
 * Every instance of a fleet runs this at its first start, at the same moment. The user and its password
 * are written in one transaction, so a user that exists always has its password: the instances that lose
 * the race on the login's unique key (they wait for the winner's commit) find both and leave them be.
 */
@Injectable()
export class AdminBootstrap implements OnApplicationBootstrap {
  outcome: AdminBootstrapOutcome = 'not configured';

  constructor(
    private readonly config: AppConfig,
    private readonly users: UsersService,
    private readonly passwords: ApplicationPasswordsService,
    private readonly transactions: WriteTransactions,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const admin = this.config.bootstrapAdmin;
    if (!admin) return;
    const existing = await this.users.findByLogin(admin.login);
    if (!existing) {
      const password = await this.passwords.prepare(BOOTSTRAP_PASSWORD_NAME, admin.password);
      try {
        await this.transactions.run(
          async () => {
            const user = await this.users.create({ login: admin.login, role: 'administrator' });
            await this.passwords.store(user.id, password);
          },
          { content: false },
        );
        this.outcome = 'created';
      } catch (error) {
        // Another instance starting at the same moment created it, with this same password, first.
        if (!(error instanceof UserExistsError)) throw error;
        this.outcome = 'exists';
      }
      return;
    }
    const bootstrap = (await this.passwords.list(existing.id)).filter((p) => p.name === BOOTSTRAP_PASSWORD_NAME);
    const secret = normalizeApplicationPassword(admin.password);
    const matches = await Promise.all(bootstrap.map((p) => verifySecret(secret, p.passwordHash)));
    if (matches.some(Boolean)) {
      this.outcome = 'exists';
      return;
    }
    await this.passwords.issue(existing.id, BOOTSTRAP_PASSWORD_NAME, admin.password);
    for (const old of bootstrap) await this.passwords.revoke(existing.id, old.id);
    this.outcome = 'password changed';
  }
}
