import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { isEmail } from 'class-validator';
import type { Repository } from 'typeorm';
import { Clock } from '../common/dates/clock';
import { isUniqueViolation } from '../common/errors/driver-errors';
import { AuthInputError, UserExistsError } from './auth-input.error';
import { CredentialCache } from './credential-cache';
import { isRole, ROLES, type Role } from './roles';
import { UserEntity } from './user.entity';
import { DatabaseContext } from '../database/database-context';
import { WriteTransactions } from '../database/write-transactions';

const LOGIN_PATTERN = /^[a-z0-9._@-]{1,60}$/;

export interface NewUser {
  login: string;
  role: string;
  email?: string;
  displayName?: string;
}

/** Users and their roles. Logins are case-insensitive and stored in lower case. */
@Injectable()
export class UsersService {
  constructor(
    private readonly db: DatabaseContext,
    private readonly transactions: WriteTransactions,
    @InjectRepository(UserEntity) private readonly users: Repository<UserEntity>,
    private readonly clock: Clock,
    private readonly credentials: CredentialCache,
  ) {}

  static normalizeLogin(login: string): string {
    return login.trim().toLowerCase();
  }

  async create(input: NewUser): Promise<UserEntity> {
    const login = UsersService.normalizeLogin(input.login);
    if (!LOGIN_PATTERN.test(login)) {
      throw new AuthInputError(`login "${input.login}" must be 1–60 letters, digits or . _ @ -`);
    }
    const role = this.parseRole(input.role);
    const email = input.email?.trim() || null;
    if (email !== null && !isEmail(email)) throw new AuthInputError(`"${email}" is not an e-mail address`);
    if (await this.findByLogin(login)) throw new UserExistsError(`user "${login}" already exists`);
    try {
      // In a caller's write transaction (the bootstrap) the row goes with its own.
      return await this.transactions.single((manager) => {
        const users = manager.getRepository(UserEntity);
        return users.save(
          users.create({
            login,
            role,
            email,
            displayName: input.displayName?.trim() || login,
            registeredUtc: this.clock.nowSqlUtc(),
          }),
        );
      });
    } catch (error) {
      if (isUniqueViolation(error)) {
        throw new UserExistsError(
          email === null ? `user "${login}" already exists` : `user "${login}" or e-mail "${email}" already exists`,
        );
      }
      throw error;
    }
  }

  findById(id: number): Promise<UserEntity | null> {
    return this.users.findOneBy({ id });
  }

  findByLogin(login: string): Promise<UserEntity | null> {
    return this.users.findOneBy({ login: UsersService.normalizeLogin(login) });
  }

  async requireByLogin(login: string): Promise<UserEntity> {
    const user = await this.findByLogin(login);
    if (!user) throw new AuthInputError(`no user "${login}"`);
    return user;
  }

  /** Whether any administrator exists (the first-run page says whether set-up is done). */
  async hasAdministrator(): Promise<boolean> {
    return (await this.db.manager.getRepository(UserEntity).countBy({ role: 'administrator' })) > 0;
  }

  async exists(id: number): Promise<boolean> {
    return (await this.db.manager.getRepository(UserEntity).countBy({ id })) > 0;
  }

  list(): Promise<UserEntity[]> {
    return this.users.find({ order: { login: 'ASC' } });
  }

  async setRole(login: string, role: string): Promise<UserEntity> {
    const user = await this.requireByLogin(login);
    user.role = this.parseRole(role);
    await this.users.update({ id: user.id }, { role: user.role });
    await this.credentials.forgetUser(user.id);
    return user;
  }

  private parseRole(role: string): Role {
    if (!isRole(role)) throw new AuthInputError(`role "${role}" is not one of ${ROLES.join(', ')}`);
    return role;
  }
}
