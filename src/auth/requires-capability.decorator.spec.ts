import { describe, expect, it } from '@jest/globals';
import { Get } from '@nestjs/common';
import { PATH_METADATA } from '@nestjs/common/constants';
import type { RequestContext } from '../common/http/request-context';
import { DomainError } from '../common/errors/domain-error';
import { toAuthUser } from './auth-user';
import { RequiresCapability } from './requires-capability.decorator';
import type { Role } from './roles';

class Subject {
  @Get('things')
  @RequiresCapability('manage_categories', 'term')
  write(_body: unknown, ctx: RequestContext): string {
    return `ok ${ctx.user?.login}`;
  }

  @RequiresCapability('read')
  noContext(): string {
    return 'never';
  }
}

const ctxFor = (role: Role | null): RequestContext => ({
  kind: 'request-context',
  user: role ? toAuthUser({ id: 1, login: role, role }) : null,
  language: 'en',
  restBase: '',
  siteUrl: '',
  namespaceUrl: '',
  dialect: 'cal',
  requestId: '',
  clientAddress: '127.0.0.1',
});

const failure = (fn: () => unknown): DomainError => {
  try {
    fn();
  } catch (e) {
    return e as DomainError;
  }
  throw new Error('expected a failure');
};

describe('RequiresCapability', () => {
  const subject = new Subject();

  it('lets a caller with the capability through', () => {
    expect(subject.write({}, ctxFor('editor'))).toBe('ok editor');
  });

  it('answers anonymous callers 401 and signed-in ones without the capability 403', () => {
    expect(failure(() => subject.write({}, ctxFor(null))).status).toBe(401);
    const forbidden = failure(() => subject.write({}, ctxFor('author')));
    expect(forbidden.status).toBe(403);
    expect(forbidden.code).toBe('rest_forbidden');
  });

  it('keeps the route metadata of the method it wraps', () => {
    expect(Reflect.getMetadata(PATH_METADATA, Subject.prototype.write)).toBe('things');
  });

  it('fails loudly when the route has no @Ctx() parameter', () => {
    expect(() => subject.noContext()).toThrow(/needs a @Ctx\(\) parameter/);
  });
});
