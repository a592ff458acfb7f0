import { Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { isUniqueViolation } from '../common/errors/driver-errors';
import { AppConfig } from '../config/app-config';
import { ApplicationPasswordsService } from './application-passwords.service';
import { UsersService } from './users.service';

/**
 * Setup without a UI: when `CAL_ADMIN_LOGIN` and `CAL_ADMIN_PASSWORD` are set and that user does not
 * exist, it is created as administrator with that application password. An existing user is never changed.
 */
@Injectable()
export class AdminBootstrap implements OnApplicationBootstrap {
  constructor(
    private readonly config: AppConfig,
    private readonly users: UsersService,
    private readonly passwords: ApplicationPasswordsService,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const admin = this.config.bootstrapAdmin;
    if (!admin || (await this.users.findByLogin(admin.login))) return;
    try {
      const user = await this.users.create({ login: admin.login, role: 'administrator' });
      await this.passwords.issue(user.id, 'bootstrap (CAL_ADMIN_PASSWORD)', admin.password);
    } catch (error) {
      // Another instance starting at the same moment created it first.
      if (!isUniqueViolation(error)) throw error;
    }
  }
}
