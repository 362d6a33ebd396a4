/**
 * The `markdown` mode's text. The reference runs html2text (GPL-3.0, no npm twin); this is turndown
 * configured and extended towards html2text's defaults, an approximation:
 * - kept alike: ATX headings, `**bold**`, `_emphasis_`, `[text](href "title")` links (`<href>` when
 *   the text is the absolute href; `#anchor` links reduced to their text), `![alt](src)` images,
 *   `  * ` / `  1. ` list items nested by two spaces, `> ` quotes, 4-space indented `<pre>`, `* * *`
 *   rules, tables as `a| b` rows under a `---|---` line, script/style/head/title dropped, output
 *   ending in a blank line, U+00A0 written as a space; `<noscript>` and `<template>` are dropped too
 *   (html2text prints their text), since the DOM parser would hand their markup over as text;
 * - not reproduced: html2text re-wraps paragraphs at 78 columns; it transliterates named entities
 *   (`&rsquo;` → `'`, `&mdash;` → `--`, `&eacute;` → `e`...) while the DOM parser
 *   has already decoded them here; it escapes far fewer characters than turndown (`\*`, `\_`, `\[`
 *   appear here); blank-line and spacing rules around lists, tables and inline elements differ; and
 *   the HTML5 tree builder behind turndown (domino) moves misplaced table text, html.parser does not.
 */
import TurndownService from 'turndown';

/** The DOM surface the rules read (turndown's nodes are domino's DOM nodes). */
interface DomNode {
  readonly nodeName: string;
  readonly parentNode: DomNode | null;
  readonly childNodes: ArrayLike<DomNode>;
  readonly nextSibling: DomNode | null;
  getAttribute(name: string): string | null;
}

const asNode = (node: unknown): DomNode => node as DomNode;

/** Element children of `node` named `name` (upper case, as DOM nodeName). */
function childrenNamed(node: DomNode, names: readonly string[]): DomNode[] {
  return Array.from(node.childNodes).filter((child) => names.includes(child.nodeName));
}

/** The rows of a table in document order (not those of nested tables). */
function tableRows(table: DomNode): DomNode[] {
  const rows: DomNode[] = [];
  for (const child of Array.from(table.childNodes)) {
    if (child.nodeName === 'TR') rows.push(child);
    else if (['THEAD', 'TBODY', 'TFOOT'].includes(child.nodeName)) rows.push(...childrenNamed(child, ['TR']));
  }
  return rows;
}

function closestTable(node: DomNode): DomNode | undefined {
  for (let current = node.parentNode; current !== null; current = current.parentNode) {
    if (current.nodeName === 'TABLE') return current;
  }
  return undefined;
}

const trimNewlines = (text: string): string => text.replace(/^\n+/, '').replace(/\n+$/, '');

function createConverter(): TurndownService {
  const service = new TurndownService({
    headingStyle: 'atx',
    hr: '* * *',
    bulletListMarker: '*',
    codeBlockStyle: 'indented',
    emDelimiter: '_',
    strongDelimiter: '**',
    linkStyle: 'inlined',
  });
  // html2text skips the contents of <head>, <script> and <style>; the DOM parser moves a document's
  // <title> (and <template> content, never rendered) into the converted tree, so they go too.
  service.remove(['script', 'style', 'head', 'title', 'template', 'noscript']);

  service.addRule('html2textLink', {
    filter: (node) => asNode(node).nodeName === 'A' && (asNode(node).getAttribute('href') ?? '') !== '',
    replacement: (content, node) => {
      const element = asNode(node);
      const href = element.getAttribute('href')!;
      if (href.startsWith('#')) return content;
      if (content === href && /^[a-z][a-z0-9+.-]*:/i.test(href)) return `<${href}>`;
      const title = element.getAttribute('title');
      return `[${content}](${href}${title !== null && title !== '' ? ` "${title}"` : ''})`;
    },
  });

  service.addRule('html2textListItem', {
    filter: 'li',
    replacement: (content, node) => {
      const element = asNode(node);
      const parent = element.parentNode;
      let marker = '*';
      if (parent?.nodeName === 'OL') {
        const start = Number.parseInt(parent.getAttribute('start') ?? '1', 10);
        marker = `${(Number.isNaN(start) ? 1 : start) + childrenNamed(parent, ['LI']).indexOf(element)}.`;
      }
      // Nested lists and paragraphs inside an item continue two spaces further in, without blank lines.
      const body = trimNewlines(content).replace(/\n{2,}/g, '\n').replace(/\n/g, '\n  ');
      return `  ${marker} ${body}${element.nextSibling !== null ? '\n' : ''}`;
    },
  });

  service.addRule('html2textTable', {
    filter: 'table',
    replacement: (content) => `\n\n${trimNewlines(content)}\n\n`,
  });
  service.addRule('html2textTableSection', {
    filter: ['thead', 'tbody', 'tfoot'],
    replacement: (content) => content,
  });
  service.addRule('html2textTableRow', {
    filter: 'tr',
    replacement: (content, node) => {
      const row = asNode(node);
      const table = closestTable(row);
      const first = table !== undefined && tableRows(table)[0] === row;
      const cells = childrenNamed(row, ['TD', 'TH']).length;
      const separator = first && cells > 0 ? `${new Array<string>(cells).fill('---').join('|')}\n` : '';
      return `${trimNewlines(content)}\n${separator}`;
    },
  });
  service.addRule('html2textTableCell', {
    filter: ['td', 'th'],
    replacement: (content, node) => {
      const cell = asNode(node);
      const row = cell.parentNode;
      const isFirst = row === null || childrenNamed(row, ['TD', 'TH'])[0] === cell;
      return `${isFirst ? '' : '| '}${content.trim().replace(/\s*\n+\s*/g, ' ')}`;
    },
  });
  return service;
}

let converter: TurndownService | undefined;

/** Markdown for an HTML page, in the spirit of `html2text.HTML2Text().handle(html)` (see the file comment). */
export function htmlToMarkdown(html: string): string {
  converter ??= createConverter();
  // html2text's output ends with a blank line (turndown trims its output), and it writes `&nbsp;` as
  // a plain space: the entity is far more common in pages than a literal U+00A0, which the DOM
  // parser makes indistinguishable from it.
  // Blank lines left by removed <head> content are dropped: html2text starts with the first text.
  const markdown = converter.turndown(html).replace(/^(?:[ \t]*\n)+/, '');
  return `${markdown.replace(/\u00a0/g, ' ')}\n\n`;
}
