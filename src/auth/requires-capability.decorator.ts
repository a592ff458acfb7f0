import { applyDecorators } from '@nestjs/common';
import { ApiExtension, ApiSecurity } from '@nestjs/swagger';
import { DomainError } from '../common/errors/domain-error';
import { isRequestContext } from '../common/http/request-context';
import { can } from './auth-user';
import type { Capability } from './roles';

/**
 * Declares the capability a route needs. The check runs after the pipes, so parameters are validated
 * before permissions (behaviour.md §2): a bad parameter is 400 even for an anonymous caller. Anonymous
 * callers get 401, signed-in callers without the capability 403. Record-level rules (own or others'
 * posts) are the service's, through `postPolicy`. The route must take a `@Ctx()` parameter.
 *
 * @param capability what the caller must have
 * @param resource the post type family the route acts on, documented with the operation
 */
export function RequiresCapability(capability: Capability, resource?: string): MethodDecorator {
  const guard: MethodDecorator = (_target, propertyKey, descriptor: PropertyDescriptor) => {
    const original = descriptor.value as (...args: unknown[]) => unknown;
    const wrapped = function (this: unknown, ...args: unknown[]): unknown {
      const ctx = args.find(isRequestContext);
      if (!ctx) throw new Error(`@RequiresCapability on ${String(propertyKey)} needs a @Ctx() parameter`);
      if (!can(ctx.user, capability)) throw new DomainError(ctx.user ? 'forbidden' : 'unauthenticated');
      return original.apply(this, args);
    };
    // Route and documentation metadata live on the function object; keep them on the wrapper.
    for (const key of Reflect.getMetadataKeys(original)) {
      Reflect.defineMetadata(key, Reflect.getMetadata(key, original), wrapped);
    }
    Object.defineProperty(wrapped, 'name', { value: original.name });
    descriptor.value = wrapped;
    return descriptor;
  };
  return applyDecorators(
    ApiSecurity('basic'),
    ApiExtension('x-required-capability', resource ? { capability, resource } : { capability }),
    guard,
  );
}
