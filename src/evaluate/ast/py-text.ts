/**
 * Python `re` semantics for the AST checker's type converters (the pieces of Python's regex syntax
 * that behave differently in JS regular expressions), and the indexed items of a container.
 */

import { PY_SPACE_CLASS } from '../../py/str.js';
import { dictGet, PyException, PyTuple, pyTypeName, type PyValue } from '../../py/value.js';

// ---------------------------------------------------------------------------------------------
// Regex building blocks. Python's `re` on str patterns is Unicode-aware where JS (even with the `u`
// flag) is ASCII-only, and Python's `$` also matches before a final newline.

/** Python `\s`: the characters for which `str.isspace()` is true. */
export const RE_S = `[${PY_SPACE_CLASS}]`;
/** Python `\d`: any Unicode decimal digit. */
export const RE_D = '\\p{Nd}';
/** Python `\w`: Unicode letters and numbers plus `_`. */
export const RE_W = '[\\p{L}\\p{N}_]';
/** Python `.` without DOTALL: anything but `\n` (JS `.` also stops at `\r`, U+2028 and U+2029). */
export const RE_DOT = '[^\\n]';
/** Python `.` with DOTALL. */
export const RE_DOT_ALL = '[\\s\\S]';
/** Python `$` without MULTILINE: the end, or just before a final `\n`. */
export const RE_END = '(?=\\n?$)';

/** A JS regex from pattern text built with the blocks above (always Unicode mode). */
export const pyRegex = (source: string, flags = ''): RegExp => new RegExp(source, `u${flags}`);

// ---------------------------------------------------------------------------------------------
// Containers

/**
 * The items `container[0] .. container[len - 1]` (the reference indexes with `range(len(x))`):
 * a list's or tuple's elements, a string's characters.
 */
export function pyIndexedItems(container: PyValue): PyValue[] {
  if (Array.isArray(container)) return container;
  if (container instanceof PyTuple) return container.items;
  if (typeof container === 'string') return Array.from(container);
  if (container instanceof Map) {
    // `d[i]` looks the int up as a key.
    return Array.from({ length: container.size }, (_, i) => {
      const v = dictGet(container, BigInt(i));
      if (v === undefined) throw new PyException('KeyError', String(i));
      return v;
    });
  }
  throw new PyException('TypeError', `object of type '${pyTypeName(container)}' has no len()`);
}
