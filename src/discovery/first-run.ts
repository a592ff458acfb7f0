import escapeHtml from 'escape-html';

/** What the first-run page says about this instance. */
export interface FirstRunPage {
  name: string;
  version: string;
  database: { type: string };
  /** Whether an administrator exists: without one nobody can write yet. */
  administrator: boolean;
  links: Record<'routes' | 'openapi' | 'api_ui' | 'events' | 'feed' | 'health', string>;
  /** The documentation, in the service's source (README.md and docs/). */
  docs: string[];
  /** Two commands that create an event and list it on this instance. */
  try: { create: string; list: string };
  next: string;
}

export const DOC_FILES = [
  'README.md',
  'docs/configuration.md',
  'docs/authentication.md',
  'docs/events.md',
  'docs/calendar-clients.md',
  'docs/operations.md',
  'docs/architecture.md',
];

/** The two curl lines of the README's quick start, with this instance's own URL. */
export function tryCommands(namespaceUrl: string, today: string): FirstRunPage['try'] {
  const day = today.slice(0, 10);
  const event = JSON.stringify({
    title: 'Jazz night',
    start_date: `${day} 20:00`,
    end_date: `${day} 23:00`,
    categories: ['Jazz'],
  });
  return {
    create: `curl -u 'LOGIN:APPLICATION PASSWORD' -H 'Content-Type: application/json' ${namespaceUrl}/events -d '${event}'`,
    list: `curl '${namespaceUrl}/events?categories=jazz'`,
  };
}

/** The page as HTML for a browser: no script, no inline style (the CSP allows neither need). */
export function firstRunHtml(page: FirstRunPage): string {
  const e = (value: string) => escapeHtml(value);
  const link = (label: string, href: string) => `<li><a href="${e(href)}">${e(label)}</a></li>`;
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>${e(page.name)}</title></head>
<body>
<h1>${e(page.name)} ${e(page.version)}</h1>
<p>Database: ${e(page.database.type)}. Administrator: ${page.administrator ? 'set up' : 'none yet'}.</p>
<p>${e(page.next)}</p>
<h2>Try it</h2>
<pre>${e(page.try.create)}</pre>
<pre>${e(page.try.list)}</pre>
<h2>Where to go</h2>
<ul>
${link('Route index', page.links.routes)}
${link('API UI (Swagger, with “Try it out”)', page.links.api_ui)}
${link('OpenAPI document', page.links.openapi)}
${link('Events (JSON)', page.links.events)}
${link('Events as an iCalendar feed', page.links.feed)}
${link('Readiness', page.links.health)}
</ul>
<h2>Documentation</h2>
<p>In the service's source: ${page.docs.map((d) => `<code>${e(d)}</code>`).join(', ')}.</p>
</body>
</html>
`;
}
