/**
 * JSON kept as text. A result file's `inference_log` is most of its bytes, yet evaluation only
 * copies it into the score file of a failed multi-turn entry. Reading it as a `JsonFragment` checks
 * it with `json.loads`'s rules and brings it to the text `json.dumps` would write, without building
 * Python values; they are built only if something looks inside (`value`).
 */

import { JsonReader, decodeEscapes, floatText, isIntegerToken, jsonDumps, jsonString, parseJsonLossless } from './json.js';
import { pyRepr } from './repr.js';
import { PyObject, pyEquals, pyTypeName, type PyValue } from './value.js';

export class JsonFragment extends PyObject {
  private parsed: { value: PyValue } | undefined;
  private asciiText: string | undefined;

  /** `raw`: the JSON text as read; `unicodeText`: its `json.dumps(..., ensure_ascii=False)` form. */
  private constructor(
    readonly raw: string,
    private readonly unicodeText: string,
  ) {
    super();
  }

  /** Read the JSON value at the reader's cursor as a fragment (throws `JsonDecodeError` as `json.loads` would). */
  static read(reader: JsonReader): JsonFragment {
    const start = reader.i;
    const unicodeText = canonicalJsonAt(reader, false);
    return new JsonFragment(reader.text.slice(start, reader.i), unicodeText);
  }

  /** The Python value, parsed on first use. */
  get value(): PyValue {
    this.parsed ??= { value: parseJsonLossless(this.raw) };
    return this.parsed.value;
  }

  get pyTypeName(): string {
    return pyTypeName(this.value);
  }

  pyRepr(): string {
    return pyRepr(this.value);
  }

  override pyEquals(other: PyValue): boolean {
    return pyEquals(this.value, other instanceof JsonFragment ? other.value : other);
  }

  override get jsonSerializable(): boolean {
    return true;
  }

  override jsonValue(): PyValue {
    return this.value;
  }

  override jsonText(ensureAscii: boolean): string {
    if (!ensureAscii) return this.unicodeText;
    this.asciiText ??= canonicalJsonAt(new JsonReader(this.raw), true);
    return this.asciiText;
  }
}

/** A repeated key: `json.loads` keeps the first position with the last value, so the text must be rebuilt. */
const REPEATED_KEY = Symbol('repeated key');

/**
 * `json.dumps(json.loads(v), ensure_ascii=...)` of the value at the reader's cursor, moving past it.
 * Copies the input where it already has that form (the usual case for files Python wrote) and
 * rewrites only what differs: whitespace, string escapes, number spellings.
 */
export function canonicalJsonAt(reader: JsonReader, ensureAscii: boolean): string {
  const start = reader.i;
  const writer = new CanonicalWriter(reader, ensureAscii);
  try {
    writer.value();
  } catch (error) {
    if (error !== REPEATED_KEY) throw error;
    reader.i = start;
    return jsonDumps(reader.parseValue(), { ensureAscii });
  }
  return writer.finish();
}

const NON_ASCII = /[^\x00-\x7f]/;

class CanonicalWriter {
  private out = '';
  /** Input from here to the cursor is already in canonical form and not yet copied to `out`. */
  private from: number;

  constructor(
    private readonly reader: JsonReader,
    private readonly ensureAscii: boolean,
  ) {
    this.from = reader.i;
  }

  finish(): string {
    const text = this.out + this.reader.text.slice(this.from, this.reader.i);
    this.out = '';
    this.from = this.reader.i;
    return text;
  }

  /** Put `replacement` in place of the input `[start, end)`. */
  private replace(start: number, end: number, replacement: string): void {
    this.out += this.reader.text.slice(this.from, start) + replacement;
    this.from = end;
  }

  /** Skip whitespace that must read `expected` (`''` inside brackets, `' '` after `,` and `:`). */
  private whitespace(expected: '' | ' '): void {
    const reader = this.reader;
    const p = reader.i;
    reader.skipWs();
    const q = reader.i;
    if (q - p !== expected.length || (q > p && reader.text.charCodeAt(p) !== 0x20)) this.replace(p, q, expected);
  }

  value(): void {
    const reader = this.reader;
    const text = reader.text;
    if (reader.i >= text.length) reader.fail('Expecting value');
    const c = text.charCodeAt(reader.i);
    if (c === 0x22) {
      this.string();
      return;
    }
    if (c === 0x7b) {
      this.object();
      return;
    }
    if (c === 0x5b) {
      this.array();
      return;
    }
    const start = reader.i;
    const token = reader.scanScalar();
    const canonical = canonicalScalar(token);
    if (canonical !== token) this.replace(start, reader.i, canonical);
  }

  /** A string token; returns its value. */
  private string(): string {
    const reader = this.reader;
    const text = reader.text;
    const start = reader.i;
    const escaped = reader.skipString();
    const end = reader.i;
    const value = escaped ? decodeEscapes(text, start + 1, end - 1) : text.slice(start + 1, end - 1);
    if (escaped || (this.ensureAscii && NON_ASCII.test(value))) {
      const encoded = jsonString(value, this.ensureAscii);
      if (encoded !== text.slice(start, end)) this.replace(start, end, encoded);
    }
    return value;
  }

  private array(): void {
    const reader = this.reader;
    const text = reader.text;
    reader.i++;
    this.whitespace('');
    if (text.charCodeAt(reader.i) === 0x5d) {
      reader.i++;
      return;
    }
    for (;;) {
      this.value();
      this.whitespace('');
      const c = text.charCodeAt(reader.i);
      if (c === 0x5d) {
        reader.i++;
        return;
      }
      if (c !== 0x2c) reader.fail("Expecting ',' delimiter");
      reader.i++;
      this.whitespace(' ');
    }
  }

  private object(): void {
    const reader = this.reader;
    const text = reader.text;
    reader.i++;
    this.whitespace('');
    if (text.charCodeAt(reader.i) === 0x7d) {
      reader.i++;
      return;
    }
    const keys: string[] = [];
    for (;;) {
      if (text.charCodeAt(reader.i) !== 0x22) reader.fail('Expecting property name enclosed in double quotes');
      const key = this.string();
      if (keys.includes(key)) throw REPEATED_KEY;
      keys.push(key);
      this.whitespace('');
      if (text.charCodeAt(reader.i) !== 0x3a) reader.fail("Expecting ':' delimiter");
      reader.i++;
      this.whitespace(' ');
      this.value();
      this.whitespace('');
      const c = text.charCodeAt(reader.i);
      if (c === 0x7d) {
        reader.i++;
        return;
      }
      if (c !== 0x2c) reader.fail("Expecting ',' delimiter");
      reader.i++;
      this.whitespace(' ');
    }
  }
}

/** How `json.dumps` writes the value of a number or literal token. */
function canonicalScalar(token: string): string {
  const c = token.charCodeAt(token.length - 1);
  // Literals (null, true, false, NaN, Infinity) end in a letter and are written as read.
  if (c > 0x39) return token;
  if (isIntegerToken(token)) return token === '-0' ? '0' : token;
  return floatText(Number(token));
}
