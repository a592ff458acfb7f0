import { beforeEach, describe, expect, it, jest } from '@jest/globals';
import { Test } from '@nestjs/testing';
import { getRepositoryToken } from '@nestjs/typeorm';
import { Clock } from '../common/dates/clock';
import { SharedRedis } from '../common/redis/shared-redis';
import { AppConfig } from '../config/app-config';
import { WriteTransactions } from '../database/write-transactions';
import { ApplicationPasswordEntity } from './application-password.entity';
import { ApplicationPasswordsService } from './application-passwords.service';
import { CredentialCache } from './credential-cache';
import { hashSecret } from './secret-hashing';
import { UsersService } from './users.service';

describe('ApplicationPasswordsService', () => {
  let service: ApplicationPasswordsService;
  const rows: ApplicationPasswordEntity[] = [];
  const repo = {
    create: jest.fn((v: Partial<ApplicationPasswordEntity>) => v as ApplicationPasswordEntity),
    insert: jest.fn(async (row: ApplicationPasswordEntity) => {
      rows.push(row);
      return {};
    }),
    find: jest.fn(async () => [...rows]),
    update: jest.fn(async (_where: unknown, _values: unknown) => ({ affected: 1 })),
    delete: jest.fn(async ({ id }: { id: string }) => {
      const i = rows.findIndex((r) => r.id === id);
      if (i >= 0) rows.splice(i, 1);
      return { affected: i >= 0 ? 1 : 0 };
    }),
  };
  const alice = { id: 7, login: 'alice', role: 'author' as const };
  const users = { findByLogin: jest.fn(async (login: string) => (login === 'alice' ? alice : null)) };

  beforeEach(async () => {
    rows.length = 0;
    jest.clearAllMocks();
    const moduleRef = await Test.createTestingModule({
      providers: [
        ApplicationPasswordsService,
        CredentialCache,
        { provide: getRepositoryToken(ApplicationPasswordEntity), useValue: repo },
        { provide: UsersService, useValue: users },
        { provide: AppConfig, useValue: { authCacheSeconds: 60 } },
        { provide: Clock, useValue: { nowSqlUtc: () => '2026-01-01 00:00:00' } },
        // No REDIS_URL: one instance.
        { provide: SharedRedis, useValue: { client: null } },
        {
          provide: WriteTransactions,
          useValue: {
            single: <T>(work: (manager: unknown) => Promise<T>) => work({ getRepository: () => repo }),
          },
        },
      ],
    }).compile();
    service = moduleRef.get(ApplicationPasswordsService);
  });

  it('stores only a hash and verifies the password, with or without spaces', async () => {
    const issued = await service.issue(alice.id, 'laptop');
    expect(rows[0].passwordHash).not.toContain(issued.password.replace(/ /g, ''));
    const user = await service.verify('Alice', issued.password.replace(/ /g, ''), '127.0.0.1');
    expect(user).toMatchObject({ id: 7, login: 'alice', role: 'author' });
    expect(user?.capabilities.has('publish_posts')).toBe(true);
    expect(repo.update).toHaveBeenCalledWith(
      { id: issued.id },
      { lastUsedUtc: '2026-01-01 00:00:00', lastIp: '127.0.0.1' },
    );
  });

  it('answers repeated verifications from the cache', async () => {
    const issued = await service.issue(alice.id, 'laptop');
    await service.verify('alice', issued.password, undefined);
    repo.find.mockClear();
    await service.verify('alice', issued.password, undefined);
    expect(repo.find).not.toHaveBeenCalled();
  });

  it('refuses a wrong password and an unknown login', async () => {
    await service.issue(alice.id, 'laptop');
    rows.push({ ...rows[0], id: 'other', passwordHash: await hashSecret('somethingelse') });
    await expect(service.verify('alice', 'wrong', undefined)).resolves.toBeNull();
    await expect(service.verify('mallory', 'wrong', undefined)).resolves.toBeNull();
  });

  it('stops accepting a revoked password at once', async () => {
    const issued = await service.issue(alice.id, 'laptop');
    await service.verify('alice', issued.password, undefined);
    await service.revoke(alice.id, issued.id);
    await expect(service.verify('alice', issued.password, undefined)).resolves.toBeNull();
  });

  it('refuses an empty name', async () => {
    await expect(service.issue(alice.id, '  ')).rejects.toThrow(/name/);
  });
});
