import type { Type } from '@nestjs/common';
import { PartialType } from '@nestjs/swagger';

/**
 * The update DTO of a create DTO: every field optional, documented as such. Unlike a bare `PartialType`
 * (which marks fields `IsOptional`, letting `null` past every rule), only absent fields skip validation;
 * `null` is read by each field as its documented empty value or refused with a 400.
 */
export function PartialUpdate<T>(create: Type<T>): ReturnType<typeof PartialType<T>> {
  return PartialType(create, { skipNullProperties: false });
}
