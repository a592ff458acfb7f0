import { describe, expect, it } from '@jest/globals';
import { decodeHTML } from 'entities';
import { wpTermNameHtml, wpTitleHtml } from './wordpress-text';

describe('plain text as WordPress sends it', () => {
  it('escapes term names as WordPress stores them, as the recorded TEC site answers', () => {
    expect(wpTermNameHtml('Arts & Culture')).toBe('Arts &amp; Culture');
    expect(wpTermNameHtml('<svg onload=alert(1)>')).toBe('&lt;svg onload=alert(1)&gt;');
    expect(wpTermNameHtml('R&amp;B "live"')).toBe('R&amp;B "live"');
    expect(wpTermNameHtml('café été')).toBe('café été');
  });

  it('escapes titles as the_title writes an ampersand, and quotes so that decoding gives the title back', () => {
    expect(wpTitleHtml('Code & Coffee')).toBe('Code &#038; Coffee');
    expect(wpTitleHtml('Filmclub „Lichtspiel“')).toBe('Filmclub „Lichtspiel“');
    expect(wpTitleHtml('Anna\'s "Big" Night')).toBe('Anna&#039;s &quot;Big&quot; Night');
    expect(wpTitleHtml('<svg onload=alert(1)>')).toBe('&lt;svg onload=alert(1)&gt;');
    expect(wpTitleHtml('Already &amp; escaped &#8217;')).toBe('Already &amp; escaped &#8217;');
    for (const title of ['Code & Coffee', 'Anna\'s "Big" Night', '<b>x</b> & y', 'a &amp b']) {
      expect(decodeHTML(wpTitleHtml(title))).toBe(title);
    }
  });

  it('leaves no character that starts markup or an attribute unescaped', () => {
    for (const hostile of ['<script>x</script>', '"><img src=x onerror=y>', "'onmouseover='a", '&lt;b&gt;']) {
      for (const out of [wpTitleHtml(hostile), wpTermNameHtml(hostile)]) expect(out).not.toMatch(/[<>]/);
      expect(wpTitleHtml(hostile)).not.toMatch(/["']/);
    }
  });
});
