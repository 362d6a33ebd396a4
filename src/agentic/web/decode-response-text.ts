/**
 * A response body as text the way requests' `response.text` decodes it: the charset of the
 * `Content-Type` header; else ISO-8859-1 for any media type containing "text"; else UTF-8 for
 * JSON. `<meta charset>` is never looked at, so a UTF-8 page served as bare `text/html` becomes
 * mojibake in the reference too, and that is kept.
 */
import { TextDecoder } from 'node:util';
import { pyStrip } from '../../py/str.js';
import { PyException } from '../../py/value.js';

/** requests' `_parse_content_type_header`: the media type and the lower-cased parameter names. */
function parseContentType(header: string): { mediaType: string; params: Map<string, string | true> } {
  const [first, ...rest] = header.split(';');
  const params = new Map<string, string | true>();
  for (const raw of rest) {
    const param = pyStrip(raw);
    if (param === '') continue;
    const eq = param.indexOf('=');
    if (eq === -1) params.set(param.toLowerCase(), true);
    else params.set(pyStrip(param.slice(0, eq), `"' `).toLowerCase(), pyStrip(param.slice(eq + 1), `"' `));
  }
  return { mediaType: pyStrip(first!), params };
}

/**
 * requests' `get_encoding_from_headers`: the charset label, or undefined when requests would fall
 * back to statistical detection (no Content-Type, or one naming neither text nor JSON).
 */
export function encodingFromContentType(contentType: string | undefined): string | undefined {
  if (contentType === undefined || contentType === '') return undefined;
  const { mediaType, params } = parseContentType(contentType);
  const charset = params.get('charset');
  if (charset === true) {
    // BFCL parity: requests get_encoding_from_headers — a bare `charset` parameter has the value
    // True, whose .strip() raises inside fetch_url_content's try.
    throw new PyException('AttributeError', "'bool' object has no attribute 'strip'");
  }
  if (charset !== undefined) return pyStrip(charset, `'"`);
  // BFCL parity: requests get_encoding_from_headers — case-sensitive substring tests.
  if (mediaType.includes('text')) return 'ISO-8859-1';
  if (mediaType.includes('application/json')) return 'utf-8';
  return undefined;
}

/** Python codec names that mean true Latin-1 (WHATWG maps these labels to windows-1252 instead). */
const LATIN1 = new Set(['iso-8859-1', 'iso8859-1', 'iso_8859-1', 'iso_8859_1', 'latin-1', 'latin1', 'latin_1', 'l1', 'cp819', '8859', 'iso8859_1']);
/** Python names of ASCII (WHATWG maps them to windows-1252; Python replaces every byte over 0x7f). */
const ASCII = new Set(['ascii', 'us-ascii', 'us_ascii', '646', 'ansi_x3.4-1968']);

/**
 * Decode `body` as requests would with `errors="replace"`. Without a usable charset requests runs
 * charset_normalizer (not reproducible); UTF-8 is used then. `partial` leaves out a multi-byte
 * sequence cut by the size cap instead of turning it into U+FFFD.
 */
export function decodeResponseText(body: Uint8Array, contentType: string | undefined, partial = false): string {
  if (body.length === 0) return '';
  const label = encodingFromContentType(contentType)?.trim().toLowerCase();
  if (label !== undefined && LATIN1.has(label)) return Buffer.from(body.buffer, body.byteOffset, body.length).toString('latin1');
  if (label !== undefined && ASCII.has(label)) {
    let out = '';
    for (const byte of body) out += byte < 0x80 ? String.fromCharCode(byte) : '\ufffd';
    return out;
  }
  if (label !== undefined && CP1252.has(label)) return decodeCp1252(body);
  for (const candidate of label === undefined ? [] : [label, label.replace(/_/g, '-')]) {
    const decoder = textDecoder(candidate);
    if (decoder !== undefined) return decoder.decode(body, { stream: partial });
  }
  // BFCL parity: requests Response.text — an unknown codec falls back to UTF-8 with replacement.
  return textDecoder('utf-8')!.decode(body, { stream: partial });
}

/** Python names of cp1252 (Node 20's TextDecoder decodes `windows-1252` as Latin-1, so it is done here). */
const CP1252 = new Set(['windows-1252', 'windows_1252', 'cp1252', 'x-cp1252']);

/** Python's cp1252 for 0x80–0x9F; U+FFFD where Python's codec has no character (errors="replace"). */
const CP1252_HIGH = '€\ufffd‚ƒ„…†‡ˆ‰Š‹Œ\ufffdŽ\ufffd\ufffd‘’“”•–—˜™š›œ\ufffdžŸ';

function decodeCp1252(body: Uint8Array): string {
  let out = '';
  for (const byte of body) out += byte >= 0x80 && byte < 0xa0 ? CP1252_HIGH[byte - 0x80] : String.fromCharCode(byte);
  return out;
}

function textDecoder(label: string): TextDecoder | undefined {
  try {
    // Python's codecs keep a byte-order mark as U+FEFF; WHATWG decoders strip it unless told not to.
    return new TextDecoder(label, { fatal: false, ignoreBOM: true });
  } catch {
    return undefined;
  }
}
