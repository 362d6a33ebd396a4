/**
 * Query-string values as Python's `requests` sends them (`_encode_params` + `urlencode(doseq=True)`
 * + `quote_plus`): the reference passes the model's raw `keywords` and `region` to SerpAPI's
 * client, which hands them to requests, so a non-str argument still produces a request.
 */
import { pyStr } from '../../py/repr.js';
import { PyException, PySet, PyTuple, type PyValue } from '../../py/value.js';
import type { SearchParam } from './search-provider.js';

/**
 * The text values one parameter produces: None → none (requests drops it), a str → itself, a
 * list/tuple/set/dict → one value per item (dict: its keys; None items dropped), anything else →
 * its `str()`.
 */
export function requestsParamValues(value: PyValue): string[] {
  if (value === null) return [];
  if (typeof value === 'string') return [value];
  const items = iterableItems(value);
  if (items === undefined) return [pyStr(value)];
  const out: string[] = [];
  for (const item of items) {
    if (item === null) continue;
    // BFCL parity: requests' urlencode(doseq=True) — an item that has a length (str aside) is
    // iterated again, one value per element; anything else is str()'d.
    if (typeof item === 'string') out.push(item);
    else out.push(...(iterableItems(item)?.map((inner) => pyStr(inner)) ?? [pyStr(item)]));
  }
  return out;
}

function iterableItems(value: PyValue): PyValue[] | undefined {
  if (Array.isArray(value)) return value;
  if (value instanceof PyTuple) return value.items;
  if (value instanceof PySet) return [...value.items];
  if (value instanceof Map) return [...value.keys()];
  return undefined;
}

/**
 * `(name, value)` pairs for `name=value` with requests' value rules, in order; raises Python's
 * UnicodeEncodeError for a value UTF-8 cannot encode (requests fails the same way before sending).
 */
export function requestsParams(entries: readonly (readonly [string, PyValue])[]): SearchParam[] {
  const out: SearchParam[] = [];
  for (const [name, value] of entries) {
    for (const text of requestsParamValues(value)) {
      requireEncodable(text);
      out.push([name, text]);
    }
  }
  return out;
}

/** A lone surrogate: a JSON `\ud800` escape can put one in a model's argument. */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** Python's UnicodeEncodeError when `text` holds a code point UTF-8 cannot encode. */
function requireEncodable(text: string): void {
  if (!LONE_SURROGATE.test(text)) return;
  const codePoints = Array.from(text);
  const position = codePoints.findIndex((ch) => LONE_SURROGATE.test(ch));
  const code = codePoints[position]!.charCodeAt(0).toString(16);
  throw new PyException(
    'UnicodeEncodeError',
    `'utf-8' codec can't encode character '\\u${code}' in position ${position}: surrogates not allowed`,
  );
}

/** Python's `urllib.parse.quote_plus` of a well-formed str (UTF-8; only letters, digits and `_.-~` kept; space → `+`). */
export function quotePlus(text: string): string {
  // encodeURIComponent keeps !'()* too; quote_plus escapes them.
  return encodeURIComponent(text)
    .replace(/[!'()*]/g, (ch) => `%${ch.charCodeAt(0).toString(16).toUpperCase()}`)
    .replace(/%20/g, '+');
}

/** `name=value&...` as requests writes a query string. */
export function encodeQuery(params: readonly SearchParam[]): string {
  return params.map(([name, value]) => `${quotePlus(name)}=${quotePlus(value)}`).join('&');
}
