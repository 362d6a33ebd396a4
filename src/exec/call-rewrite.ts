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

/** The reference's per-entry instance name, `<model>_<id>_<Class>_instance` with `-./:` → `_`. */
export function instanceName(modelName: string, entryId: string, className: string): string {
  return `${modelName}_${entryId}_${className}_instance`.replace(/[-./:]/g, '_');
}
