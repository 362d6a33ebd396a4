import { PyObject, PySet, PyTuple, type PyKey, type PyValue } from './value.js';

// Python's str.isprintable() is false for these categories (space excepted), and repr escapes them.
const NON_PRINTABLE = /[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}\p{Zl}\p{Zp}\p{Zs}]/u;
const NEEDS_ESCAPE = /[\\\n\r\t\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}\p{Zl}\p{Zp}\p{Zs}]/u;

// The same prices and balances are printed again and again as simulated state is dumped each call.
const FLOAT_REPR_CACHE_SIZE = 50_000;
const floatReprCache = new Map<number, string>();

/** Python `repr(x)` of a float: shortest round-trip digits, `.0` for integral values, `1e-05` style exponents. */
export function floatRepr(x: number): string {
  if (Number.isNaN(x)) return 'nan';
  if (!Number.isFinite(x)) return x > 0 ? 'inf' : '-inf';
  if (x === 0) return Object.is(x, -0) ? '-0.0' : '0.0';
  const abs = Math.abs(x);
  if (abs >= 1e-4 && abs < 1e16) {
    let text = floatReprCache.get(x);
    if (text === undefined) {
      // Both languages print shortest round-trip digits in fixed notation here; Python adds ".0".
      text = Number.isInteger(x) ? String(x) + '.0' : String(x);
      if (floatReprCache.size >= FLOAT_REPR_CACHE_SIZE) floatReprCache.clear();
      floatReprCache.set(x, text);
    }
    return text;
  }
  const [mantissa, expText] = x.toExponential().split('e') as [string, string];
  const exp = Number(expText);
  const negative = mantissa.startsWith('-');
  const digits = mantissa.replace('-', '').replace('.', '');
  const sign = negative ? '-' : '';
  if (exp < -4 || exp >= 16) {
    const frac = digits.length > 1 ? `${digits[0]}.${digits.slice(1)}` : digits;
    const expSign = exp < 0 ? '-' : '+';
    return `${sign}${frac}e${expSign}${String(Math.abs(exp)).padStart(2, '0')}`;
  }
  if (exp < 0) return `${sign}0.${'0'.repeat(-exp - 1)}${digits}`;
  const intPart = digits.length > exp + 1 ? digits.slice(0, exp + 1) : digits.padEnd(exp + 1, '0');
  const fracPart = digits.length > exp + 1 ? digits.slice(exp + 1) : '0';
  return `${sign}${intPart}.${fracPart}`;
}

function hexEscape(code: number): string {
  if (code < 0x100) return `\\x${code.toString(16).padStart(2, '0')}`;
  if (code < 0x10000) return `\\u${code.toString(16).padStart(4, '0')}`;
  return `\\U${code.toString(16).padStart(8, '0')}`;
}

/** Printable ASCII without `'` and `\`: most strings, whose repr is just the text in single quotes. */
const PLAIN_ASCII = /^[\x20-\x26\x28-\x5b\x5d-\x7e]*$/;

/** Python `repr(s)` of a str: quote choice and escapes exactly as CPython. */
export function strRepr(s: string): string {
  if (PLAIN_ASCII.test(s)) return "'" + s + "'";
  const quote = s.includes("'") && !s.includes('"') ? '"' : "'";
  if (!NEEDS_ESCAPE.test(s) && !s.includes(quote)) return quote + s + quote;
  let out = quote;
  for (const ch of s) {
    if (ch === quote || ch === '\\') out += '\\' + ch;
    else if (ch === '\n') out += '\\n';
    else if (ch === '\r') out += '\\r';
    else if (ch === '\t') out += '\\t';
    else if (ch !== ' ' && NON_PRINTABLE.test(ch)) out += hexEscape(ch.codePointAt(0)!);
    else out += ch;
  }
  return out + quote;
}

function keyRepr(k: PyKey): string {
  return pyRepr(k);
}

/** Python `repr(x)`. */
export function pyRepr(v: PyValue): string {
  if (v === null) return 'None';
  switch (typeof v) {
    case 'boolean':
      return v ? 'True' : 'False';
    case 'bigint':
      return v.toString();
    case 'number':
      return floatRepr(v);
    case 'string':
      return strRepr(v);
  }
  if (Array.isArray(v)) return '[' + v.map(pyRepr).join(', ') + ']';
  if (v instanceof Map) {
    const parts: string[] = [];
    v.forEach((val, k) => parts.push(`${keyRepr(k)}: ${pyRepr(val)}`));
    return '{' + parts.join(', ') + '}';
  }
  if (v instanceof PyTuple) {
    if (v.items.length === 1) return `(${pyRepr(v.items[0]!)},)`;
    return '(' + v.items.map(pyRepr).join(', ') + ')';
  }
  if (v instanceof PySet) {
    if (v.items.size === 0) return 'set()';
    return '{' + [...v.items].map(keyRepr).join(', ') + '}';
  }
  if (v instanceof PyObject) return v.pyRepr();
  throw new TypeError(`not a Python value: ${String(v)}`);
}

/** Python `str(x)`: the string itself for str, `repr` for everything else we model. */
export function pyStr(v: PyValue): string {
  return typeof v === 'string' ? v : pyRepr(v);
}
