import { documentedProperties, documentedSchema } from '../../../common/validation/documented-properties';
import { ImportOptionsDto, type ImportOptions } from '../dto/import-options.dto';
import type { ImportSubscriptionEntity } from './import-subscription.entity';

/** The options' names, from their one declaration (`ImportOptionsDto`). */
const optionNames = (): readonly (keyof ImportOptions)[] =>
  documentedProperties(ImportOptionsDto) as readonly (keyof ImportOptions)[];

/** A subscription's options as its runs take them: `categories` has a column of its own, the rest are JSON. */
export function optionsOf(sub: Pick<ImportSubscriptionEntity, 'categories' | 'options'>): ImportOptions {
  const stored = (sub.options ? JSON.parse(sub.options) : {}) as ImportOptions;
  const categories = JSON.parse(sub.categories) as string[];
  return { ...stored, ...(categories.length > 0 ? { categories } : {}) };
}

/**
 * The options after a create or an update: each option the request names replaces the one kept (`null`
 * clears it: the DTO turns it into a present `undefined`), the others stay.
 */
export function mergedOptions(kept: ImportOptions, dto: object): ImportOptions {
  const merged: Record<string, unknown> = { ...kept };
  for (const name of optionNames()) {
    if (!Object.prototype.hasOwnProperty.call(dto, name)) continue;
    const value = (dto as Record<string, unknown>)[name];
    if (value === undefined || (Array.isArray(value) && value.length === 0)) delete merged[name];
    else merged[name] = value;
  }
  return merged;
}

/** The options as the subscription's columns keep them. */
export function storedOptions(options: ImportOptions): Pick<ImportSubscriptionEntity, 'categories' | 'options'> {
  const { categories, ...rest } = options;
  return { categories: JSON.stringify(categories ?? []), options: JSON.stringify(rest) };
}

/** The options as the API shows them: every option, `null` (or `[]`) when not set. */
export function shownOptions(options: ImportOptions): Record<string, unknown> {
  const shown: Record<string, unknown> = {};
  for (const name of optionNames()) {
    const value = options[name];
    shown[name] = value ?? (documentedSchema(ImportOptionsDto, name).isArray ? [] : null);
  }
  return shown;
}
