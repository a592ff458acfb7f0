import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { randomUUID } from 'node:crypto';
import type { Repository } from 'typeorm';
import { Clock } from '../common/dates/clock';
import { WriteTransactions } from '../database/write-transactions';
import { ApplicationPasswordEntity } from './application-password.entity';
import { AuthInputError } from './auth-input.error';
import { toAuthUser, type AuthUser } from './auth-user';
import { CredentialCache } from './credential-cache';
import { generateApplicationPassword, hashSecret, normalizeApplicationPassword, verifySecret } from './secret-hashing';
import { UsersService } from './users.service';

export interface IssuedPassword {
  id: string;
  name: string;
  /** Shown once; only its hash is stored. */
  password: string;
  createdUtc: string;
}

export interface PreparedPassword {
  name: string;
  password: string;
  passwordHash: string;
}

// Verified against when the login is unknown, so a wrong login takes as long as a wrong password.
const DUMMY_HASH = hashSecret('not-a-real-password');

/** Application passwords: several per user, named, revocable, stored as scrypt hashes. */
@Injectable()
export class ApplicationPasswordsService {
  constructor(
    @InjectRepository(ApplicationPasswordEntity) private readonly passwords: Repository<ApplicationPasswordEntity>,
    private readonly users: UsersService,
    private readonly credentials: CredentialCache,
    private readonly clock: Clock,
    private readonly transactions: WriteTransactions,
  ) {}

  /** Issues a new password for the user; `secret` is for the start-up bootstrap only. */
  async issue(userId: number, name: string, secret?: string): Promise<IssuedPassword> {
    return this.store(userId, await this.prepare(name, secret));
  }

  /**
   * A password hashed and ready to store: the slow part of {@link issue}, done before a transaction that
   * stores it beside other rows (the bootstrap's user), so the transaction holds its locks only briefly.
   */
  async prepare(name: string, secret?: string): Promise<PreparedPassword> {
    const label = name.trim();
    if (label === '' || label.length > 100) throw new AuthInputError('a password name must be 1–100 characters');
    const password = secret ?? generateApplicationPassword();
    return { name: label, password, passwordHash: await hashSecret(normalizeApplicationPassword(password)) };
  }

  /** Stores a prepared password, in the caller's write transaction when there is one. */
  async store(userId: number, prepared: PreparedPassword): Promise<IssuedPassword> {
    const row = this.passwords.create({
      id: randomUUID(),
      userId,
      name: prepared.name,
      passwordHash: prepared.passwordHash,
      createdUtc: this.clock.nowSqlUtc(),
      lastUsedUtc: null,
      lastIp: null,
    });
    await this.transactions.single((manager) => manager.getRepository(ApplicationPasswordEntity).insert(row));
    return { id: row.id, name: row.name, password: prepared.password, createdUtc: row.createdUtc };
  }

  list(userId: number): Promise<ApplicationPasswordEntity[]> {
    return this.passwords.find({ where: { userId }, order: { createdUtc: 'ASC', id: 'ASC' } });
  }

  async revoke(userId: number, passwordId: string): Promise<void> {
    const result = await this.passwords.delete({ id: passwordId, userId });
    if (!result.affected) throw new AuthInputError(`no application password "${passwordId}" for this user`);
    await this.credentials.forgetPassword(passwordId);
  }

  /** The user these credentials belong to, or null when they match no live application password. */
  async verify(login: string, password: string, ip: string | undefined): Promise<AuthUser | null> {
    const normalizedLogin = UsersService.normalizeLogin(login);
    const secret = normalizeApplicationPassword(password);
    const epoch = await this.credentials.epoch();
    const cached = this.credentials.get(normalizedLogin, secret, epoch);
    if (cached) return cached.user;

    const user = await this.users.findByLogin(normalizedLogin);
    const candidates = user ? await this.list(user.id) : [];
    if (!user || candidates.length === 0) {
      await verifySecret(secret, await DUMMY_HASH);
      return null;
    }
    // Every candidate is checked, side by side, so the answer does not come sooner for the first of
    // several passwords than for the last (timing would tell how many a user has, and which matched).
    const matches = await Promise.all(candidates.map((c) => verifySecret(secret, c.passwordHash)));
    for (const [index, candidate] of candidates.entries()) {
      if (matches[index]) {
        await this.passwords.update(
          { id: candidate.id },
          { lastUsedUtc: this.clock.nowSqlUtc(), lastIp: ip?.slice(0, 45) ?? null },
        );
        const authUser = toAuthUser(user);
        this.credentials.set(normalizedLogin, secret, { user: authUser, passwordId: candidate.id }, epoch);
        return authUser;
      }
    }
    return null;
  }
}
