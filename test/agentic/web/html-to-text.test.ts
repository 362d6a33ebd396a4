import { describe, expect, it } from 'vitest';
import { htmlToText } from '../../../src/agentic/web/html-to-text.js';
import { fixture } from './web-test-helpers.js';

describe('htmlToText (BeautifulSoup html.parser get_text("\\n", strip=True))', () => {
  it('matches the golden of the article fixture (checked against CPython 3.11 html.parser)', () => {
    expect(htmlToText(fixture('article.html'))).toBe(fixture('article.truncate.txt'));
  });

  it('gives the spec example', () => {
    const html =
      '<p>Hello <b>bold</b> and <a href="/x">link</a>.</p><template><p>t</p></template><ruby>漢<rt>kan</rt></ruby><table>t1<tr><td>c</td></tr></table>';
    expect(htmlToText(html)).toBe('Hello\nbold\nand\nlink\n.\n漢\nt1\nc');
  });

  // Expected values produced by CPython 3.11's html.parser driven with bs4's tree rules.
  it.each([
    ['entities, with and without semicolons', 'a &lt; b &amp c &copy d &notit; e &#128; f &#x110000; g &#0; h', 'a < b & c © d ¬it; e € f \ufffd g \ufffd h'],
    ['a bare < in text', 'x < y and y > z', 'x < y and y > z'],
    ['self-closing tags, <script/> included, open and close at once', '<p/>one<script/>two<p>three</p>', 'one\ntwo\nthree'],
    ['upper-case script and style', '<SCRIPT>hidden</SCRIPT>shown<STYLE>s</STYLE>', 'shown'],
    ['a > inside a quoted attribute', "<div title='a > b'>attr</div>", 'attr'],
    ['processing instructions', '<?php echo 1; ?>after pi', 'after pi'],
    ['a stray end tag still ends a string', 'a</3>b</x>c', 'a\nb\nc'],
    ['nested templates', '<template><template>in</template>still</template>out', 'out'],
    ['everything inside rt', '<rt>r<b>bold</b>r</rt>after', 'after'],
    ['unclosed elements', '<p>unclosed <b>bold <i>it</p>tail', 'unclosed\nbold\nit\ntail'],
    ['table text in source order', 't1<table>t2<tr>t3<td>c</td></tr></table>', 't1\nt2\nt3\nc'],
    ['textarea and title text', '<textarea>plain</textarea><title>ttl</title>', 'plain\nttl'],
    ['Python whitespace stripping (U+00A0 stripped)', '\u00a0 nbsp-edges \u00a0', 'nbsp-edges'],
    ['U+200B and U+FEFF are not whitespace', '\u200b zero-width \ufeff', '\u200b zero-width \ufeff'],
    ['void elements', '<br>a<hr/>b<img src=x>c', 'a\nb\nc'],
    ['CDATA kept as its own string', 'a<![CDATA[ x y ]]>b', 'a\nx y\nb'],
    ['comments and doctype dropped', '<!DOCTYPE html>a<!-- c -->b', 'a\nb'],
    ['empty document', '', ''],
  ])('%s', (_name, html, text) => {
    expect(htmlToText(html)).toBe(text);
  });

  it('reads <!--> as an empty comment (HTML standard; CPython before 3.13.4 reads on to the next -->)', () => {
    expect(htmlToText('<!x>bogus<!-->empty<!--->')).toBe('bogus\nempty');
  });
});
