import { ValidationPipe } from '@nestjs/common';
import { RequestValidationError } from './request-validation.error';

/**
 * The one validation pipe. Unknown parameters are dropped (as the reference ignores them); types come
 * from the field decorators' transforms, never from implicit conversion, so `"abc"` is never a number.
 */
export function createValidationPipe(): ValidationPipe {
  return new ValidationPipe({
    whitelist: true,
    forbidNonWhitelisted: false,
    transform: true,
    transformOptions: { enableImplicitConversion: false, exposeDefaultValues: true },
    forbidUnknownValues: false,
    validationError: { target: false, value: true },
    exceptionFactory: (errors) => RequestValidationError.fromValidationErrors(errors),
  });
}
