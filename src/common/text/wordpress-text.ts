/**
 * Plain text as WordPress, and so The Events Calendar, sends it: HTML-escaped. The TEC-compatible alias
 * answers this way, because clients written for TEC print titles and names as HTML (TEC's own widgets and
 * many themes do); the service's own namespace keeps plain text (docs/api-decisions.md).
 */

/** An ampersand that does not start a character reference (`&amp;`, `&#038;`, `&#x26;` are left as they are). */
const BARE_AMPERSAND = /&(?!(?:[a-zA-Z][a-zA-Z0-9]*|#[0-9]+|#[xX][0-9a-fA-F]+);)/g;

/**
 * A term name as WordPress stores and sends it (`_wp_specialchars` when the term is saved): `&`, `<` and `>`
 * escaped, quotes left alone, character references not escaped again. `Arts & Culture` → `Arts &amp; Culture`.
 */
export function wpTermNameHtml(name: string): string {
  return name.replace(BARE_AMPERSAND, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/**
 * A post title (an event's, a venue's, an organizer's) escaped as WordPress sends it: a bare `&` as `&#038;`
 * (what `the_title` writes), `<`, `>` and both quotes as references. WordPress's `wptexturize` would also
 * turn straight quotes, dashes and dots into typographic ones; the alias does not, so that a title read
 * through it and decoded is the stored title again (`import:tec` between two instances keeps it;
 * docs/api-decisions.md). `Code & Coffee` → `Code &#038; Coffee`.
 */
export function wpTitleHtml(title: string): string {
  return title
    .replace(BARE_AMPERSAND, '&#038;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#039;');
}
