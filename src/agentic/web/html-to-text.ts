/**
 * The `truncate` mode's text: BeautifulSoup(html, "html.parser") with `<script>`/`<style>` removed,
 * then `get_text(separator="\n", strip=True)`. Built on htmlparser2's tokenizer, which like Python's
 * html.parser does no HTML5 tree repair, so text comes out in source order.
 */
import { Tokenizer } from 'htmlparser2';
import { pyStrip } from '../../py/str.js';

/**
 * Tags whose strings BeautifulSoup stores as Script, Stylesheet, TemplateString, RubyTextString or
 * RubyParenthesisString: `get_text` skips them (it keeps NavigableString and CData only).
 */
const STRING_CONTAINERS = new Set(['script', 'style', 'template', 'rt', 'rp']);

/** Void elements: BeautifulSoup closes them at once, so they never enclose text. */
const VOID_ELEMENTS = new Set([
  'area', 'base', 'br', 'col', 'embed', 'hr', 'img', 'input', 'keygen', 'link', 'menuitem', 'meta', 'param', 'source',
  'track', 'wbr', 'basefont', 'bgsound', 'command', 'frame', 'image', 'isindex', 'nextid', 'spacer',
]);

/**
 * The text BeautifulSoup's `get_text("\n", strip=True)` gives for `html` parsed with html.parser,
 * after removing every script and style element.
 *
 * Known differences (all from the tokenizers): htmlparser2 reads `<title>`/`<textarea>` as RCDATA
 * and `<xmp>`, `<iframe>`, `<noembed>`, `<noframes>`, `<plaintext>` as raw text, as the HTML
 * standard and recent CPython releases do (older html.parser parses tags inside them); `<!-->`
 * is an empty comment (CPython before 3.13.4/3.12.11 reads on to the next `-->`); and its entity
 * decoder may differ from `html.unescape` on malformed references. Checked against CPython 3.11's
 * html.parser driven with bs4's tree rules on the test fixtures.
 */
export function htmlToText(html: string): string {
  const strings: string[] = [];
  /** Open elements, innermost last (names only; BeautifulSoup's tree without the nodes). */
  const open: string[] = [];
  /** Open string-container elements, innermost last (BeautifulSoup's string_container_stack). */
  const containers: number[] = [];
  let pending = '';
  let tagName = '';

  // BFCL parity: bs4 BeautifulSoup.endData — consecutive character data (entities included) form
  // one string, ended by any tag, comment, declaration or processing instruction.
  const endData = (): void => {
    if (pending === '') return;
    if (containers.length === 0) strings.push(pending);
    pending = '';
  };
  const addString = (text: string): void => {
    strings.push(text);
  };
  const push = (name: string): void => {
    if (STRING_CONTAINERS.has(name)) containers.push(open.length);
    open.push(name);
  };
  /** bs4 `_popToTag`: close the innermost open `name` and everything inside it; ignore a stray end tag. */
  const popTo = (name: string): void => {
    const index = open.lastIndexOf(name);
    if (index === -1) return;
    open.length = index;
    while (containers.length > 0 && containers[containers.length - 1]! >= index) containers.pop();
  };

  const tokenizer = new Tokenizer(
    // recognizeSelfClosing: html.parser treats `<script/>` as opened and closed (no raw-text body).
    { xmlMode: false, decodeEntities: true, recognizeSelfClosing: true },
    {
      ontext(start, end) {
        pending += html.slice(start, end);
      },
      ontextentity(codePoint) {
        pending += String.fromCodePoint(codePoint);
      },
      onopentagname(start, end) {
        endData();
        tagName = html.slice(start, end).toLowerCase();
      },
      onopentagend() {
        if (!VOID_ELEMENTS.has(tagName)) push(tagName);
      },
      onselfclosingtag() {
        // html.parser's handle_startendtag: the element opens and closes at once.
      },
      onclosetag(start, end) {
        endData();
        popTo(html.slice(start, end).toLowerCase());
      },
      oncdata(start, end, offset) {
        // BFCL parity: bs4 BeautifulSoupHTMLParser.unknown_decl — `<![CDATA[...]]>` becomes a CData
        // string of its own, which get_text keeps (even inside a string container).
        endData();
        addString(html.slice(start, end - offset));
      },
      oncomment() {
        endData();
      },
      ondeclaration() {
        endData();
      },
      onprocessinginstruction() {
        endData();
      },
      onattribdata() {},
      onattribentity() {},
      onattribend() {},
      onattribname() {},
      onend() {
        endData();
      },
    },
  );
  tokenizer.write(html);
  tokenizer.end();

  // BFCL parity: bs4 Tag.get_text(separator="\n", strip=True) — each string str.strip()ped, empty
  // ones dropped, the rest joined with the separator.
  const kept: string[] = [];
  for (const s of strings) {
    const stripped = pyStrip(s);
    if (stripped !== '') kept.push(stripped);
  }
  return kept.join('\n');
}
