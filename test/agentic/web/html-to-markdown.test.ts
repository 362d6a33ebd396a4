import { describe, expect, it } from 'vitest';
import { htmlToMarkdown } from '../../../src/agentic/web/html-to-markdown.js';
import { fixture } from './web-test-helpers.js';

describe('htmlToMarkdown (turndown towards html2text)', () => {
  it('matches the golden of the article fixture (our converter, not html2text)', () => {
    expect(htmlToMarkdown(fixture('article.html'))).toBe(fixture('article.markdown.md'));
  });

  it('gives html2text 2020.1.16 output for the spec example', () => {
    expect(htmlToMarkdown('<h1>Head&nbsp;line</h1><p>Hello <b>bold</b> and <a href="/x">link</a>.</p>')).toBe(
      '# Head line\n\nHello **bold** and [link](/x).\n\n',
    );
  });

  it.each([
    ['a link whose text is its absolute href', '<a href="https://e.org/">https://e.org/</a>', '<https://e.org/>\n\n'],
    ['an anchor link', '<p><a href="#top">top</a> of page</p>', 'top of page\n\n'],
    ['a link title', '<a href="/a" title="T">a</a>', '[a](/a "T")\n\n'],
    ['nested lists', '<ul><li>a<ul><li>b</li></ul></li><li>c</li></ul>', '  * a\n    * b\n  * c\n\n'],
    ['an ordered list with a start', '<ol start="7"><li>x</li><li>y</li></ol>', '  7. x\n  8. y\n\n'],
    ['a table', '<table><tr><th>a</th><th>b</th></tr><tr><td>1</td><td>2</td></tr></table>', 'a| b\n---|---\n1| 2\n\n'],
    ['script, style and title dropped', '<title>T</title><style>p{}</style><script>x()</script><p>body</p>', 'body\n\n'],
    ['a rule and a quote', '<hr><blockquote>q</blockquote>', '* * *\n\n> q\n\n'],
    ['emphasis and strong', '<p><em>e</em> <strong>s</strong></p>', '_e_ **s**\n\n'],
    ['an image', '<img src="/i.png" alt="pic">', '![pic](/i.png)\n\n'],
  ])('%s', (_name, html, markdown) => {
    expect(htmlToMarkdown(html)).toBe(markdown);
  });
});
