/**
 * The reference's textual preprocessing of a call string before it is evaluated
 * (multi_turn_utils.py `_process_method_calls` and the safety check in `execute_multi_turn_func_call`).
 */

/** A name followed by `(`: what the reference's rewrite prefixes (group 1 is the name). */
export const METHOD_NAME = /\b([a-zA-Z_]\w*)\s*(?=\()/g;

/**
 * Prefix every known method name followed by `(` with its instance name.
 * BFCL parity: multi_turn_utils._process_method_calls — the regex also rewrites inside string
 * literals and after a `.`, and drops the whitespace before `(`.
 */
export function prefixMethodCalls(call: string, instanceByMethod: Pick<ReadonlyMap<string, string>, 'get'>): string {
  return call.replace(METHOD_NAME, (name: string, ident: string) => {
    const instance = instanceByMethod.get(ident);
    return instance === undefined ? ident : `${instance}.${ident}`;
  });
}

const FORBIDDEN = new Set(['kill', 'exit', 'quit', 'remove', 'unlink', 'popen', 'Popen', 'run']);

/**
 * The name the reference's safety check looks at: the text before the first `(`, and if that
 * holds a `.`, its second dot-separated segment. Returns it when the call must be refused.
 */
export function forbiddenCallName(rewritten: string): string | undefined {
  const paren = rewritten.indexOf('(');
  let head = paren === -1 ? rewritten : rewritten.slice(0, paren);
  const dot = head.indexOf('.');
  if (dot !== -1) {
    const next = head.indexOf('.', dot + 1);
    head = head.slice(dot + 1, next === -1 ? undefined : next);
  }
  return FORBIDDEN.has(head) ? head : undefined;
}

/** An identifier alone (ASCII, as `METHOD_NAME` reads one). */
const PLAIN_NAME = /^[A-Za-z_]\w*$/;

/**
 * `forbiddenCallName` of the call as the reference rewrites it, which reads only the text up to the
 * first `(`. When that text is a name alone (most calls), the rewrite leaves it or makes it
 * `<instance>.<name>` (instance names hold no `.`), and the check reads the name either way: no
 * rewrite is needed. Otherwise the text up to the `(` is rewritten (the rewrite adds no parenthesis).
 */
export function forbiddenCallNameOf(call: string, instanceByMethod: Pick<ReadonlyMap<string, string>, 'get'>): string | undefined {
  const paren = call.indexOf('(');
  const head = paren === -1 ? call : call.slice(0, paren);
  if (PLAIN_NAME.test(head)) return FORBIDDEN.has(head) ? head : undefined;
  return forbiddenCallName(prefixMethodCalls(paren === -1 ? call : call.slice(0, paren + 1), instanceByMethod));
}

/** The reference's per-entry instance name, `<model>_<id>_<Class>_instance` with `-./:` → `_`. */
export function instanceName(modelName: string, entryId: string, className: string): string {
  return `${modelName}_${entryId}_${className}_instance`.replace(/[-./:]/g, '_');
}
