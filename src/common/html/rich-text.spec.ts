import { describe, expect, it } from '@jest/globals';
import { sanitizeRichText } from './rich-text';

describe('sanitizeRichText', () => {
  it('keeps ordinary formatting and links', () => {
    const html = '<p>Live <strong>jazz</strong> at <a href="https://example.org/x" title="x">the club</a></p>';
    expect(sanitizeRichText(html)).toBe(html);
  });

  it('removes scripts, event handlers, styles and javascript: URLs', () => {
    const out = sanitizeRichText(
      '<p onclick="steal()">Hi<script>alert(1)</script><style>p{}</style><a href="javascript:alert(1)">x</a><iframe src="https://e.org"></iframe></p>',
    );
    expect(out).toBe('<p>Hi<a>x</a></p>');
  });

  it('escapes stray markup characters in plain text', () => {
    expect(sanitizeRichText('1 < 2 & 3')).toBe('1 &lt; 2 &amp; 3');
  });

  it('guards links that open a new tab', () => {
    expect(sanitizeRichText('<a href="https://e.org" target="_blank">x</a>')).toBe(
      '<a href="https://e.org" target="_blank" rel="noopener noreferrer">x</a>',
    );
  });
});
