import type { Type } from '@nestjs/common';
import { plainToInstance } from 'class-transformer';
import { validate } from 'class-validator';
import { RequestValidationError } from './request-validation.error';

/**
 * Validates an object nested in a request (an inline venue of an event) with its own DTO's rules, naming
 * bad fields with the parent parameter's path (`venue.email`). Returns the transformed instance.
 */
export async function validateNested<T extends object>(dto: Type<T>, plain: object, path: string): Promise<T> {
  const instance = plainToInstance(dto, plain, { exposeDefaultValues: true });
  const errors = await validate(instance, { whitelist: true, forbidUnknownValues: false });
  if (errors.length > 0) {
    const nested = RequestValidationError.fromValidationErrors(errors);
    throw new RequestValidationError(nested.problems.map((p) => ({ ...p, name: `${path}.${p.name}` })));
  }
  return instance;
}
