/** Languages the service speaks in human-readable texts. Names, types and defaults never change with it. */
export const LANGUAGES = ['en', 'de'] as const;
export type Language = (typeof LANGUAGES)[number];
export const DEFAULT_LANGUAGE: Language = 'en';

/** A text in every supported language; the compiler refuses one that misses a language. */
export type Localized = Record<Language, string>;

/** `de`, `de-AT`, `DE_at` → `de`; anything unknown falls back to English. */
export function resolveLanguage(code: string | undefined | null): Language {
  const primary = (code ?? '').toLowerCase().split(/[-_]/)[0];
  return (LANGUAGES as readonly string[]).includes(primary) ? (primary as Language) : DEFAULT_LANGUAGE;
}

/** Fills `{name}` placeholders; a localized argument is read in the same language. */
export function formatMessage(
  template: string,
  language: Language,
  args: Record<string, string | number | Localized> = {},
): string {
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => {
    const value = args[name];
    if (value === undefined) return whole;
    return typeof value === 'object' ? value[language] : String(value);
  });
}
