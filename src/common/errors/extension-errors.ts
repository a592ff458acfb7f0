import type { Localized } from '../i18n/language';
import { ERROR_SPECS } from './error-specs';

/** An error a module adds: its HTTP status, its stable code and its message in every language. */
export interface ExtensionErrorSpec {
  status: number;
  code: string;
  message: Localized;
}

/** The key of an error a module defined: accepted by `DomainError` like the service's own keys. */
export type ExtensionErrorKey = string & { readonly extensionError: unique symbol };

const DEFINED = new Map<string, ExtensionErrorSpec>();

/**
 * Adds an error to the API's table, at module definition time: `new DomainError(TICKET_NOT_FOUND)` then
 * answers with its status, code and message in the caller's language, like the service's own errors. A key
 * the service or another module already has is refused, so no module can change what an error means.
 */
export function defineError(key: string, spec: ExtensionErrorSpec): ExtensionErrorKey {
  if (key in ERROR_SPECS || DEFINED.has(key)) throw new Error(`the error "${key}" is defined twice`);
  if (!Number.isInteger(spec.status) || spec.status < 400 || spec.status > 599)
    throw new Error(`the error "${key}" needs a 4xx or 5xx status, not ${spec.status}`);
  DEFINED.set(key, spec);
  return key as ExtensionErrorKey;
}

/** A defined error's spec; undefined for a key no module defined. */
export function extensionErrorSpec(key: string): ExtensionErrorSpec | undefined {
  return DEFINED.get(key);
}
