import type { Language, Localized } from './language';

const texts = new Map<string, Localized>();

/**
 * Registers a documentation text in every language and returns its English form for the decorators.
 * The OpenAPI document is generated in English; `translateDocText` swaps each description for the
 * requested language. Taking a `Localized` means a missing translation does not compile.
 */
export function docText(text: Localized): string {
  texts.set(text.en, text);
  return text.en;
}

export function translateDocText(english: string, language: Language): string {
  return texts.get(english)?.[language] ?? english;
}

export function hasTranslation(english: string): boolean {
  return texts.has(english);
}
