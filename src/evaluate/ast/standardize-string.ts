/** The AST checker's string normalisation (ast_checker.py::standardize_string). */

/** Space and the punctuation `,./-_*^` are ignored when strings are compared. */
const IGNORED_CHARS = /[ ,./\-_*^]/gu;

/**
 * Remove spaces and `,./-_*^`, lowercase, and turn single quotes into double quotes, so that
 * "April 1, 2024" and "april 1 2024" compare equal.
 */
export function standardizeString(s: string): string {
  return s.replace(IGNORED_CHARS, '').toLowerCase().replace(/'/g, '"');
}
