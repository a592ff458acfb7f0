import { Injectable } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import { DomainError } from '../common/errors/domain-error';
import '../common/http/request.types';
import { ApplicationPasswordsService } from './application-passwords.service';
import { LoginThrottle } from './login-throttle';
import { UsersService } from './users.service';

/** `login:password` from an `Authorization: Basic` header; null when the header is not that. */
export function parseBasicCredentials(header: string): { login: string; password: string } | null {
  const match = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header);
  if (!match) return null;
  const decoded = Buffer.from(match[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon <= 0) return null;
  return { login: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
}

/**
 * Authenticates every request that carries credentials. No header: anonymous. Credentials that are
 * malformed, wrong or revoked: 401, never a silent fallback to anonymous. Too many failures: 429.
 */
@Injectable()
export class BasicAuthMiddleware {
  constructor(
    private readonly passwords: ApplicationPasswordsService,
    private readonly throttle: LoginThrottle,
  ) {}

  readonly handle = (req: Request, _res: Response, next: NextFunction): void => {
    this.authenticate(req).then(
      () => next(),
      (error: unknown) => next(error),
    );
  };

  private async authenticate(req: Request): Promise<void> {
    const header = req.headers.authorization;
    if (header === undefined || header === '') return;
    const address = req.ip ?? 'unknown';
    const credentials = parseBasicCredentials(header);
    const login = credentials ? UsersService.normalizeLogin(credentials.login) : null;

    const wait = await this.throttle.retryAfterSeconds(address, login);
    if (wait > 0) throw new DomainError('too_many_requests', { headers: { 'Retry-After': String(wait) } });
    const user = credentials ? await this.passwords.verify(credentials.login, credentials.password, address) : null;
    if (!user) {
      await this.throttle.recordFailure(address, login);
      throw new DomainError('invalid_credentials');
    }
    if (login) await this.throttle.recordSuccess(address, login);
    req.user = user;
  }
}
