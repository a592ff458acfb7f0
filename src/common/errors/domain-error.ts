import { formatMessage, type Language, type Localized } from '../i18n/language';
import { ERROR_MESSAGES } from './error-messages';
import { ERROR_SPECS, type ErrorKey } from './error-specs';
import { extensionErrorSpec, type ExtensionErrorKey } from './extension-errors';

export type ErrorArgs = Record<string, string | number | Localized>;

export interface DomainErrorOptions {
  /** Extra members of the error body's `data` (for example `params` or `term_id`). */
  data?: Record<string, unknown>;
  /** Values for the message's placeholders. */
  args?: ErrorArgs;
  /** For post-type errors: the noun that builds the code (`venue` → `rest-venue-not-found`). */
  noun?: string;
  /** Response headers that belong to the error (`Retry-After` of a 429). */
  headers?: Record<string, string>;
}

/**
 * An expected failure with a stable code. Services throw these; the one exception filter turns them
 * into the error body with the status from {@link ERROR_SPECS} and a message in the caller's language.
 */
export class DomainError extends Error {
  readonly status: number;
  readonly code: string;
  /** A refusal by design (a load limit), not a failure: logged as a refusal whatever its status. */
  readonly refusal: boolean;

  constructor(
    readonly key: ErrorKey | ExtensionErrorKey,
    readonly options: DomainErrorOptions = {},
  ) {
    super(key);
    this.name = 'DomainError';
    const spec = isBuiltInError(key) ? ERROR_SPECS[key] : extensionErrorSpec(key);
    if (!spec) throw new Error(`no error "${key}" is defined`);
    this.status = spec.status;
    this.code = spec.code.replace('{noun}', options.noun ?? 'post');
    this.refusal = 'refusal' in spec && spec.refusal === true;
  }
}

/** Whether `key` is one of the service's own errors (else a module defined it: `defineError`). */
export function isBuiltInError(key: string): key is ErrorKey {
  return Object.prototype.hasOwnProperty.call(ERROR_SPECS, key);
}

/** The error's message in `language`, its placeholders filled. */
export function errorMessage(error: DomainError, language: Language): string {
  const { key } = error;
  const template = isBuiltInError(key) ? ERROR_MESSAGES[language][key] : extensionErrorSpec(key)!.message[language];
  return formatMessage(template, language, error.options.args);
}
