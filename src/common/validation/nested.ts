import type { Type } from '@nestjs/common';
import { plainToInstance } from 'class-transformer';
import { validate } from 'class-validator';
import { RequestValidationError } from './request-validation.error';

/**
 * Validates an object nested in a request (an inline venue of an event) with its own DTO's rules, naming
 * bad fields with the parent parameter's path (`venue.email`). Returns the transformed instance.
 */
export async function validateNested<T extends object>(dto: Type<T>, plain: object, path: string): Promise<T> {
  try {
    return await validateDto(dto, plain);
  } catch (error) {
    if (!(error instanceof RequestValidationError)) throw error;
    throw new RequestValidationError(error.problems.map((p) => ({ ...p, name: `${path}.${p.name}` })));
  }
}

/**
 * A plain object as a write DTO takes it (its transforms and rules, as the global pipe applies them to a
 * request): the instance, or a 400's RequestValidationError. For writes that do not come over HTTP (imports).
 */
export async function validateDto<T extends object>(dto: Type<T>, plain: object): Promise<T> {
  const instance = plainToInstance(dto, plain, { exposeDefaultValues: true });
  const errors = await validate(instance, { whitelist: true, forbidUnknownValues: false });
  if (errors.length > 0) throw RequestValidationError.fromValidationErrors(errors);
  return instance;
}
