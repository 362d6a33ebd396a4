/**
 * Rendering of judge templates as Phoenix renders them (spec §3.1, §3.7): Python `str.format`
 * fields (`{question}`) for the tool-calling templates and template files, Mustache variables
 * (`{{input}}`, no HTML escaping) followed by `textwrap.dedent` for the classification prompts.
 * Values are substituted in one left-to-right pass and never scanned again.
 */

/** One piece of a parsed `str.format` template: literal text, or a field to substitute. */
export type FormatPiece = { readonly text: string } | { readonly field: string };

/** A `str.format` template that Python would reject, or whose fields the judge cannot fill. */
export class TemplateSyntaxError extends Error {}

/**
 * Parse a `str.format` template: `{{` and `}}` are literal braces, `{name}` a field (the whole name
 * is the key, as Phoenix's `DotKeyFormatter` reads it). Conversions (`!r`), format specs (`:>10`),
 * positional fields and single braces are errors here (they never occur in the judge's templates).
 */
export function parseFormatTemplate(template: string): FormatPiece[] {
  const pieces: FormatPiece[] = [];
  let text = '';
  for (let i = 0; i < template.length; i++) {
    const ch = template[i]!;
    if (ch === '}') {
      if (template[i + 1] !== '}') throw new TemplateSyntaxError(`Single '}' encountered in format string at character ${i}`);
      text += '}';
      i++;
      continue;
    }
    if (ch !== '{') {
      text += ch;
      continue;
    }
    if (template[i + 1] === '{') {
      text += '{';
      i++;
      continue;
    }
    const close = template.indexOf('}', i + 1);
    if (close === -1) throw new TemplateSyntaxError(`Single '{' encountered in format string at character ${i}`);
    const field = template.slice(i + 1, close);
    if (field === '' || /^\d+$/.test(field)) throw new TemplateSyntaxError(`positional field {${field}} at character ${i}: name the field, e.g. {question}`);
    if (/[{!:\[]/.test(field)) throw new TemplateSyntaxError(`field {${field}} at character ${i}: conversions, format specs and indexing are not supported`);
    if (text !== '') pieces.push({ text });
    text = '';
    pieces.push({ field });
    i = close;
  }
  if (text !== '') pieces.push({ text });
  return pieces;
}

/** The field names of a parsed template, first occurrence first. */
export function formatFields(pieces: readonly FormatPiece[]): string[] {
  return [...new Set(pieces.flatMap((piece) => ('field' in piece ? [piece.field] : [])))];
}

/** `template.format(**values)` for string values; a field without a value is an error. */
export function renderFormat(pieces: readonly FormatPiece[], values: Readonly<Record<string, string>>): string {
  let out = '';
  for (const piece of pieces) {
    if ('text' in piece) {
      out += piece.text;
      continue;
    }
    const value = values[piece.field];
    if (value === undefined) throw new TemplateSyntaxError(`Missing template variable: '${piece.field}'`);
    out += value;
  }
  return out;
}

/**
 * Mustache rendering of `{{name}}` variables with string values, HTML escaping off (pystache as
 * Phoenix configures it); the one-pass substitution leaves mustaches inside values alone.
 */
export function renderMustache(template: string, values: Readonly<Record<string, string>>): string {
  return template.replace(/\{\{\s*([\w.]+)\s*\}\}/g, (whole, name: string) => {
    const value = values[name];
    if (value === undefined) throw new TemplateSyntaxError(`Missing template variable: '${name}'`);
    return value;
  });
}

/**
 * Python's `textwrap.dedent` (3.8–3.13): lines of only spaces and tabs become empty, then the
 * leading spaces and tabs common to every other line are removed. Lines are split on `\n` only, as
 * Python's `re.MULTILINE` anchors are.
 */
export function dedent(text: string): string {
  const lines = text.split('\n').map((line) => (/^[ \t]+$/.test(line) ? '' : line));
  let margin: string | undefined;
  for (const line of lines) {
    const indent = /^[ \t]*/.exec(line)![0];
    // Python's pattern needs a character other than space, tab or newline after the indent.
    if (indent.length === line.length) continue;
    if (margin === undefined || indent.startsWith(margin)) {
      margin ??= indent;
    } else if (margin.startsWith(indent)) {
      margin = indent;
    } else {
      let common = 0;
      while (common < margin.length && common < indent.length && margin[common] === indent[common]) common++;
      margin = margin.slice(0, common);
    }
  }
  if (margin === undefined || margin === '') return lines.join('\n');
  return lines.map((line) => (line.startsWith(margin!) ? line.slice(margin!.length) : line)).join('\n');
}
