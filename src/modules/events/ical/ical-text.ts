import { compile } from 'html-to-text';

/**
 * Characters RFC 5545 §3.3.11 allows in no TEXT value: C0 controls but tab and line feed (a line feed is
 * written as `\n`; a carriage return is dropped), DEL, and the C1 controls, which strict parsers refuse as
 * well. A title pasted from a terminal or a word processor can carry them.
 */
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const CONTROL_CHARACTERS = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F]/g;

export const icalText = (value: string): string => value.replace(CONTROL_CHARACTERS, '');

export const text = (value: unknown): string => (typeof value === 'string' ? icalText(value).trim() : '');

// Compiled once: \`convert\` builds its selector tables on every call, which cost a feed ~1 ms per event.
const htmlToText = compile({
  wordwrap: false,
  selectors: [
    { selector: 'a', options: { hideLinkHrefIfSameAsText: true } },
    { selector: 'img', format: 'skip' },
    { selector: 'h1', options: { uppercase: false } },
    { selector: 'h2', options: { uppercase: false } },
    { selector: 'h3', options: { uppercase: false } },
    { selector: 'table', format: 'dataTable' },
  ],
});

/**
 * The texts of the last descriptions converted: a series' occurrences (and many events of one organizer)
 * share theirs, and html-to-text costs a fraction of a millisecond each time.
 */
const recentTexts = new Map<string, string>();
const RECENT_TEXTS = 256;
const CACHED_HTML_LENGTH = 8192;

/** HTML to the plain text DESCRIPTION wants: paragraphs and lists kept as lines, images dropped. */
export function plainTextOf(html: string): string {
  if (html.trim() === '') return '';
  const known = recentTexts.get(html);
  if (known !== undefined) return known;
  const plain = icalText(htmlToText(html)).trim();
  if (html.length <= CACHED_HTML_LENGTH) {
    if (recentTexts.size >= RECENT_TEXTS) recentTexts.delete(recentTexts.keys().next().value!);
    recentTexts.set(html, plain);
  }
  return plain;
}
