import { describe, expect, it } from '@jest/globals';
import { countedTermIds, countPlaceholder, renderDocument, TEMPLATE_CONTEXT } from './event-document-template';

/** What a mapper would build with the template context: URLs from its site and namespace, a term's count. */
const templateOf = (title: string) =>
  JSON.stringify({
    title,
    url: `${TEMPLATE_CONTEXT.siteUrl}/event/x/`,
    global_id: `${TEMPLATE_CONTEXT.siteHost}?id=3`,
    rest_url: `${TEMPLATE_CONTEXT.namespaceUrl}/events/3`,
    categories: [{ id: 12, count: countPlaceholder(12) }],
    tags: [{ id: 4, count: countPlaceholder(4) }],
  });

const ctx = { siteUrl: 'https://cal.example.org', namespaceUrl: 'https://cal.example.org/api/cal/events/v1' };

describe('event document templates', () => {
  it('fills the request’s site, host and namespace, and each term’s count as a number', () => {
    const rendered = JSON.parse(renderDocument(templateOf('Gala'), ctx, new Map([[12, 7]]))) as Record<string, unknown>;
    expect(rendered).toEqual({
      title: 'Gala',
      url: 'https://cal.example.org/event/x/',
      global_id: 'cal.example.org?id=3',
      rest_url: 'https://cal.example.org/api/cal/events/v1/events/3',
      categories: [{ id: 12, count: 7 }],
      // A term deleted since the document was built counts nothing.
      tags: [{ id: 4, count: 0 }],
    });
  });

  it('writes URLs that JSON must escape as valid JSON', () => {
    const odd = { siteUrl: 'https://h.example/a"b\\c', namespaceUrl: 'https://h.example/é"\\' };
    const rendered = JSON.parse(renderDocument(templateOf('x'), odd, new Map())) as { url: string; rest_url: string };
    expect(rendered.url).toBe('https://h.example/a"b\\c/event/x/');
    expect(rendered.rest_url).toBe('https://h.example/é"\\/events/3');
  });

  it('leaves text that spells out a placeholder alone', () => {
    for (const title of ['\\ud800S', '\\\\ud800N', '"\\ud800C12\\ud800"', 'a \\ud800H b']) {
      const rendered = JSON.parse(renderDocument(templateOf(title), ctx, new Map([[12, 7]]))) as { title: string };
      expect(rendered.title).toBe(title);
    }
  });

  it('fills a placeholder that follows an escaped backslash', () => {
    const template = JSON.stringify({ path: `\\${TEMPLATE_CONTEXT.siteUrl}` });
    expect(JSON.parse(renderDocument(template, ctx, new Map()))).toEqual({ path: '\\https://cal.example.org' });
  });

  it('names the terms whose counts a template needs', () => {
    expect(countedTermIds(templateOf('"\\ud800C99\\ud800"'))).toEqual([12, 4]);
  });
});
