/**
 * JSON kept as text. A result file's `inference_log` is most of its bytes, yet evaluation only
 * copies it into the score file of a failed multi-turn entry. Reading it as a `JsonFragment` checks
 * it with `json.loads`'s rules without building Python values; the text `json.dumps` would write is
 * made only when asked for (`jsonText`), and values only if something looks inside (`value`).
 */

import { JsonReader, canonicalFloatEnd, decodeEscapes, floatText, isIntegerToken, isJsonWhitespace, jsonDumps, jsonString, parseJsonLossless, plainIntEnd } from './json.js';
import { pyRepr } from './repr.js';
import { PyObject, pyEquals, pyTypeName, type PyValue } from './value.js';

/**
 * A Python value held with JSON text (`JsonFragment`): it is the value for repr,
 * equality and type; `json.dumps` may write the text instead of encoding the value.
 */
abstract class JsonStandIn extends PyObject {
  /** The Python value it stands for. */
  abstract get value(): PyValue;

  get pyTypeName(): string {
    return pyTypeName(this.value);
  }

  pyRepr(): string {
    return pyRepr(this.value);
  }

  override pyEquals(other: PyValue): boolean {
    return pyEquals(this.value, other instanceof JsonStandIn ? other.value : other);
  }

  override get jsonSerializable(): boolean {
    return true;
  }

  override jsonValue(): PyValue {
    return this.value;
  }
}

export class JsonFragment extends JsonStandIn {
  private parsed: { value: PyValue } | undefined;
  private asciiText: string | undefined;

  /**
   * `raw`: the JSON text as read; `unicodeText`: its `json.dumps(..., ensure_ascii=False)` form,
   * or undefined until asked for.
   */
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

/** What `ensure_ascii=True` escapes besides quotes, backslashes and controls: DEL and everything above. */
const NON_ASCII = /[^\x00-\x7e]/;

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

  /** Whitespace that must be absent (inside brackets, before `,` `:` and closers). */
  private noWhitespace(): void {
    const reader = this.reader;
    if (!isJsonWhitespace(reader.text.charCodeAt(reader.i))) return;
    const p = reader.i;
    reader.skipWs();
    this.replace(p, reader.i, '');
  }

  /** Whitespace that must be exactly one space (after `,` and `:`). */
  private oneSpace(): void {
    const reader = this.reader;
    const text = reader.text;
    const p = reader.i;
    if (text.charCodeAt(p) === 0x20 && !isJsonWhitespace(text.charCodeAt(p + 1))) {
      reader.i = p + 1;
      return;
    }
    reader.skipWs();
    this.replace(p, reader.i, ' ');
  }

  value(): void {
    const reader = this.reader;
    const text = reader.text;
    if (reader.i >= text.length) reader.fail('Expecting value');
    const c = text.charCodeAt(reader.i);
    if (c === 0x22) this.string();
    else if (c === 0x7b) this.object();
    else if (c === 0x5b) this.array();
    else if ((c >= 0x30 && c <= 0x39) || c === 0x2d) this.number();
    else reader.scanScalar(); // a literal, written as read (or the error json.loads gives)
  }

  /** A string token, rewritten if its escapes are not the ones `json.dumps` writes. */
  private string(): void {
    const reader = this.reader;
    const text = reader.text;
    const start = reader.i;
    const escaped = reader.skipString();
    const end = reader.i;
    if (!this.ensureAscii) {
      if (escaped && !hasUnicodeDumpsEscapes(text, start + 1, end - 1)) {
        this.replace(start, end, jsonString(decodeEscapes(text, start + 1, end - 1), false));
      }
      return;
    }
    const value = escaped ? decodeEscapes(text, start + 1, end - 1) : text.slice(start + 1, end - 1);
    if (!escaped && !NON_ASCII.test(value)) return;
    const encoded = jsonString(value, true);
    if (encoded !== text.slice(start, end)) this.replace(start, end, encoded);
  }

  /** A number: ints are written as read (but `-0` as `0`), floats as Python's `repr`. */
  private number(): void {
    const reader = this.reader;
    const text = reader.text;
    const start = reader.i;
    const intEnd = plainIntEnd(text, start);
    if (intEnd !== -1) {
      reader.i = intEnd;
      if (intEnd === start + 2 && text.startsWith('-0', start)) this.replace(start, intEnd, '0');
      return;
    }
    const floatEnd = canonicalFloatEnd(text, start);
    if (floatEnd !== -1) {
      reader.i = floatEnd;
      return;
    }
    const token = reader.scanScalar();
    const canonical = canonicalScalar(token);
    if (canonical !== token) this.replace(start, reader.i, canonical);
  }

  private array(): void {
    const reader = this.reader;
    const text = reader.text;
    reader.i++;
    this.noWhitespace();
    if (text.charCodeAt(reader.i) === 0x5d) {
      reader.i++;
      return;
    }
    for (;;) {
      this.value();
      this.noWhitespace();
      if (reader.endOfItems(0x5d)) return;
      this.oneSpace();
    }
  }

  private object(): void {
    const reader = this.reader;
    const text = reader.text;
    reader.i++;
    this.noWhitespace();
    if (text.charCodeAt(reader.i) === 0x7d) {
      reader.i++;
      return;
    }
    const keys: string[] = [];
    for (;;) {
      if (text.charCodeAt(reader.i) !== 0x22) reader.fail('Expecting property name enclosed in double quotes');
      const start = reader.i;
      this.string();
      const raw = text.slice(start + 1, reader.i - 1);
      // Compare keys by value: only an escaped key's raw text differs from its value.
      const key = raw.includes('\\') ? decodeEscapes(text, start + 1, reader.i - 1) : raw;
      if (keys.includes(key)) throw REPEATED_KEY;
      keys.push(key);
      this.noWhitespace();
      if (text.charCodeAt(reader.i) !== 0x3a) reader.fail("Expecting ':' delimiter");
      reader.i++;
      this.oneSpace();
      this.value();
      this.noWhitespace();
      if (reader.endOfItems(0x7d)) return;
      this.oneSpace();
    }
  }
}

/** The one-letter escapes `json.dumps` writes (`\\"`, `\\\\`, `\\n`, `\\r`, `\\t`, `\\b`, `\\f`). */
const NAMED_ESCAPES = new Set(['"', '\\', 'n', 'r', 't', 'b', 'f'].map((c) => c.charCodeAt(0)));
/** Control characters that `json.dumps` writes with a one-letter escape instead of `\\u00XX`. */
const NAMED_CONTROLS = new Set([0x08, 0x09, 0x0a, 0x0c, 0x0d]);
const LOWER_HEX = /^00[01][0-9a-f]$/;

/**
 * Whether every escape in the (valid) string body `text[start, end)` is one that
 * `json.dumps(..., ensure_ascii=False)` writes: a one-letter escape, or `\\u00XX` (lowercase) for a
 * control character without one. Then the body is already in that form.
 */
function hasUnicodeDumpsEscapes(text: string, start: number, end: number): boolean {
  for (let i = text.indexOf('\\', start); i !== -1 && i < end; i = text.indexOf('\\', i)) {
    const esc = text.charCodeAt(i + 1);
    if (NAMED_ESCAPES.has(esc)) {
      i += 2;
      continue;
    }
    if (esc !== 0x75) return false; // `\\/` is never written
    const hex = text.slice(i + 2, i + 6);
    if (!LOWER_HEX.test(hex) || NAMED_CONTROLS.has(parseInt(hex, 16))) return false;
    i += 6;
  }
  return true;
}

/** How `json.dumps` writes the value of a number or literal token. */
function canonicalScalar(token: string): string {
  const c = token.charCodeAt(token.length - 1);
  // Literals (null, true, false, NaN, Infinity) end in a letter and are written as read.
  if (c > 0x39) return token;
  if (isIntegerToken(token)) return token === '-0' ? '0' : token;
  return floatText(Number(token));
}
