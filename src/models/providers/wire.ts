/**
 * The wire boundary of the provider adapters. Requests and responses are handled as Python values
 * (`PyValue`): the reference builds its requests from Python dicts and re-sends the response objects
 * it received, so keeping the JSON lossless (key order, int vs float, integers beyond 2^53) is what
 * lets our requests equal the reference's and our `result` fields equal its `json.dumps` output.
 */

import { jsonDumps, parseJsonLossless } from '../../py/json.js';
import { pyTypeName, type PyDict, type PyValue } from '../../py/value.js';
import type { Message } from '../../spec/schemas.js';
import { MalformedAnswerError } from '../retry.js';

const WIRE_JSON = { ensureAscii: false, separators: [',', ':'] as [string, string] };

/**
 * Request bodies are built as UTF-8 bytes from cached pieces: the tools and every history message
 * are encoded once, and a request only copies bytes (the body of a long conversation is ~20 KB,
 * and re-encoding it per request was a large share of a step's cost).
 */
const utf8 = (text: string): Buffer => Buffer.from(text, 'utf8');
const OPEN_BRACE = utf8('{');
const CLOSE_BRACE = utf8('}');
const OPEN_BRACKET = utf8('[');
const CLOSE_BRACKET = utf8(']');
const COMMA = utf8(',');
const COLON = utf8(':');

/** UTF-8 JSON of values that will not change again (compiled tools), keyed by the value itself. */
const frozenJson = new WeakMap<object, Buffer>();

/**
 * Marks `value` as final: its JSON is encoded once and reused by every request that sends it
 * (the tool list goes out unchanged with every step of an entry). Changing it afterwards is a bug.
 */
export function freezeForWire<T extends PyValue[] | PyDict>(value: T): T {
  frozenJson.set(value, utf8(jsonDumps(value, WIRE_JSON)));
  return value;
}

/**
 * Marks a new list of already frozen values as final: its JSON is theirs joined, so a tool list
 * assembled from cached tools costs no encoding at all.
 */
export function freezeListForWire<T extends PyValue>(items: T[]): T[] {
  const pieces: Buffer[] = [];
  pushList(items.map(encodeValue), pieces);
  frozenJson.set(items, Buffer.concat(pieces));
  return items;
}

/** Encoded elements of arrays that only ever grow (a conversation history), by array. */
const appendOnlyJson = new WeakMap<PyValue[], { elements: PyValue[]; parts: Buffer[] }>();

/**
 * Marks a history array whose elements are never changed once pushed: each element is encoded
 * once, so a request costs the new messages, not the whole conversation again. (Adapters that
 * edit earlier messages, like Anthropic's cache marks, must not use it.)
 */
export function markAppendOnly<T extends PyValue[]>(array: T): T {
  appendOnlyJson.set(array, { elements: [], parts: [] });
  return array;
}

/** `[a,b,...]` of encoded elements, as pieces. */
function pushList(parts: readonly Buffer[], pieces: Buffer[]): void {
  pieces.push(OPEN_BRACKET);
  for (let i = 0; i < parts.length; i++) {
    if (i > 0) pieces.push(COMMA);
    pieces.push(parts[i]!);
  }
  pieces.push(CLOSE_BRACKET);
}

function encodeValue(value: PyValue): Buffer {
  if (typeof value !== 'object' || value === null) return utf8(jsonDumps(value, WIRE_JSON));
  return frozenJson.get(value) ?? utf8(jsonDumps(value, WIRE_JSON));
}

/** Pushes the pieces of `value`'s JSON: cached ones as they are, an append-only history element by element. */
function pushValue(value: PyValue, pieces: Buffer[]): void {
  const memo = Array.isArray(value) ? appendOnlyJson.get(value) : undefined;
  if (memo === undefined || !Array.isArray(value)) {
    pieces.push(encodeValue(value));
    return;
  }
  for (let i = 0; i < value.length; i++) {
    if (memo.elements[i] !== value[i]) {
      memo.elements[i] = value[i]!;
      memo.parts[i] = encodeValue(value[i]!);
    }
  }
  memo.elements.length = value.length;
  memo.parts.length = value.length;
  pushList(memo.parts, pieces);
}

/**
 * A request body as UTF-8 JSON: key order as built, Python float forms (`1.0`), exact big
 * integers, compact separators and raw UTF-8, as the reference's HTTP client (httpx) writes it.
 */
export function encodeBody(body: PyDict): Buffer {
  const pieces: Buffer[] = [OPEN_BRACE];
  let first = true;
  for (const [key, value] of body) {
    if (!first) pieces.push(COMMA);
    first = false;
    pieces.push(utf8(jsonDumps(key, WIRE_JSON)), COLON);
    pushValue(value, pieces);
  }
  pieces.push(CLOSE_BRACE);
  return Buffer.concat(pieces);
}

/**
 * A response body (JSON text) as a Python dict. An empty body, one cut off or otherwise not JSON,
 * or JSON that is not an object, is a `MalformedAnswerError` (retried).
 */
export function decodeBody(text: string, label: string): PyDict {
  if (text.trim() === '') throw new MalformedAnswerError(`${label}: the response is empty`);
  let value: PyValue;
  try {
    value = parseJsonLossless(text);
  } catch (error) {
    throw new MalformedAnswerError(`${label}: the response is not JSON (cut off?): ${truncate(text)}`, { cause: error });
  }
  if (!(value instanceof Map)) throw new MalformedAnswerError(`${label}: the response is not a JSON object: ${truncate(text)}`);
  return value;
}

/** Reads the response fields the adapters need, with a clear error when the shape is unexpected. */
export class ResponseReader {
  constructor(private readonly label: string) {}

  /** `value[key]`, which must exist. */
  get(value: PyValue | undefined, key: string, path: string): PyValue {
    if (!(value instanceof Map)) throw this.error(`${path} is ${describe(value)}, expected an object`);
    const field = value.get(key);
    if (field === undefined) throw this.error(`${path}.${key} is missing`);
    return field;
  }

  /** `value[key]`, or undefined when `value` is not an object or lacks the key. */
  optional(value: PyValue | undefined, key: string): PyValue | undefined {
    return value instanceof Map ? value.get(key) : undefined;
  }

  list(value: PyValue | undefined, path: string): PyValue[] {
    if (!Array.isArray(value)) throw this.error(`${path} is ${describe(value)}, expected a list`);
    return value;
  }

  text(value: PyValue | undefined, path: string): string {
    if (typeof value !== 'string') throw this.error(`${path} is ${describe(value)}, expected a string`);
    return value;
  }

  /** `usage[key]` as a number; 0 when the server reported no usage (some local servers do not). */
  tokens(response: PyDict, key: string): number {
    const usage = response.get('usage');
    const count = usage instanceof Map ? usage.get(key) : undefined;
    if (typeof count === 'bigint') return Number(count);
    if (typeof count === 'number') return count;
    return 0;
  }

  /** A 2xx answer without what every answer has: retried like a server error. */
  error(detail: string): MalformedAnswerError {
    return new MalformedAnswerError(`${this.label}: unexpected response: ${detail}`);
  }
}

function describe(value: PyValue | undefined): string {
  if (value === undefined) return 'missing';
  return `a ${pyTypeName(value)}`;
}

function truncate(text: string, max = 200): string {
  return text.length <= max ? text : `${text.slice(0, max)}…`;
}

/**
 * A question message as the Python dict the reference passes around: every field of the dataset
 * message in order (normally `role`, `content`).
 */
export function messageToPy(message: Message): PyDict {
  const dict: PyDict = new Map();
  for (const [key, value] of Object.entries(message)) dict.set(key, plainToPy(value));
  return dict;
}

/** `{"role": role, "content": content}`. */
export function chatMessage(role: string, content: PyValue): PyDict {
  return new Map<string, PyValue>([
    ['role', role],
    ['content', content],
  ]);
}

/** A plain JSON-like value (from the dataset's typed view) as a Python value. */
function plainToPy(value: unknown): PyValue {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return value;
  if (typeof value === 'number') return Number.isInteger(value) ? BigInt(value) : value;
  if (typeof value === 'bigint') return value;
  if (Array.isArray(value)) return value.map(plainToPy);
  if (value instanceof Map) return value as PyDict;
  if (typeof value === 'object') {
    const dict: PyDict = new Map();
    for (const [k, v] of Object.entries(value as Record<string, unknown>)) dict.set(k, plainToPy(v));
    return dict;
  }
  return String(value);
}
