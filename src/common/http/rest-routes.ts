import {
  applyDecorators,
  Controller,
  createParamDecorator,
  HttpCode,
  Post,
  RequestMethod,
  SetMetadata,
} from '@nestjs/common';
import type { ExecutionContext, Type } from '@nestjs/common';
import { METHOD_METADATA } from '@nestjs/common/constants';
import { ApiParam, ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import { DomainError } from '../errors/domain-error';
import { docText } from '../i18n/doc-text';
import type { Localized } from '../i18n/language';

const UPDATE_ROUTE = 'cal:update-route';

const routeIdValue = createParamDecorator((name: string, ctx: ExecutionContext): number => {
  const raw = ctx.switchToHttp().getRequest<Request>().params[name];
  // `{id}` is digits only (contract §4.1); anything else is not a route at all.
  if (typeof raw !== 'string' || !/^\d{1,10}$/.test(raw)) throw new DomainError('no_route');
  const id = Number(raw);
  if (id > 2_147_483_647) throw new DomainError('no_route');
  return id;
});

/** A numeric path id (`{id}`, digits only); other values answer 404 `rest_no_route`. */
export function PathId(description: Localized, name = 'id'): ParameterDecorator {
  return (target, key, index) => {
    routeIdValue(name)(target, key, index);
    const descriptor = Object.getOwnPropertyDescriptor(target, key!);
    if (descriptor) ApiParam({ name, type: 'integer', description: docText(description) })(target, key!, descriptor);
  };
}

/** A path slug (`{slug}`): any non-empty run of characters without `/`. */
export function PathSlug(description: Localized): MethodDecorator {
  return ApiParam({ name: 'slug', type: 'string', description: docText(description) });
}

/**
 * Marks an update handler. With `@RestController()` on the class it answers POST, PUT and PATCH on
 * `path`, all with partial semantics (behaviour.md §1), from one method.
 */
export function UpdateRoute(path: string): MethodDecorator {
  return applyDecorators(Post(path), HttpCode(200), SetMetadata(UPDATE_ROUTE, true));
}

function copyMetadata(from: object, to: object, fromKey?: string | symbol, toKey?: string | symbol): void {
  const keys = fromKey === undefined ? Reflect.getOwnMetadataKeys(from) : Reflect.getOwnMetadataKeys(from, fromKey);
  for (const key of keys) {
    const value: unknown =
      fromKey === undefined ? Reflect.getOwnMetadata(key, from) : Reflect.getOwnMetadata(key, from, fromKey);
    if (toKey === undefined) Reflect.defineMetadata(key, value, to);
    else Reflect.defineMetadata(key, value, to, toKey);
  }
}

function addMethodAlias(prototype: Record<string, unknown>, key: string, method: RequestMethod, suffix: string): void {
  const original = prototype[key] as (...args: unknown[]) => unknown;
  const alias = function (this: unknown, ...args: unknown[]): unknown {
    return original.apply(this, args);
  };
  copyMetadata(original, alias);
  Reflect.defineMetadata(METHOD_METADATA, method, alias);
  const aliasKey = `${key}${suffix}`;
  // The OpenAPI scanner finds a handler's parameters (and its operationId) by the function's name.
  Object.defineProperty(alias, 'name', { value: aliasKey });
  Object.defineProperty(prototype, aliasKey, { value: alias, writable: true, configurable: true });
  copyMetadata(prototype, prototype, key, aliasKey);
  copyMetadata(prototype.constructor, prototype.constructor, key, aliasKey);
}

/** `@Controller(path)` that also registers the PUT and PATCH twins of every `@UpdateRoute()` handler. */
export function RestController(path: string): ClassDecorator {
  return (target) => {
    Controller(path)(target);
    const prototype = target.prototype as Record<string, unknown>;
    for (const key of Object.getOwnPropertyNames(prototype)) {
      const handler = prototype[key];
      if (key === 'constructor' || typeof handler !== 'function') continue;
      if (Reflect.getMetadata(UPDATE_ROUTE, handler) !== true) continue;
      addMethodAlias(prototype, key, RequestMethod.PUT, 'Put');
      addMethodAlias(prototype, key, RequestMethod.PATCH, 'Patch');
    }
  };
}

/**
 * Finishes a controller class made by a factory (one per post type, taxonomy or child resource): the body and
 * query types validation needs (TypeScript recorded the factory's generic ones), a class name that keeps
 * operation ids unique, its OpenAPI tag and its path. The decorators go on last, so the PUT and PATCH aliases
 * `RestController` adds copy the parameter types set here.
 */
export function finishGeneratedController(
  controller: Type,
  options: { name: string; tag: string; path: string; paramTypes: Record<string, unknown[]> },
): Type {
  for (const [method, types] of Object.entries(options.paramTypes))
    Reflect.defineMetadata('design:paramtypes', types, controller.prototype as object, method);
  Object.defineProperty(controller, 'name', { value: options.name });
  ApiTags(options.tag)(controller);
  RestController(options.path)(controller);
  return controller;
}
