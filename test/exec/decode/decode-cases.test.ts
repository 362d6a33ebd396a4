/**
 * Conformance: the canned model outputs of /work/shared/conformance/requests/decode_cases.jsonl
 * (README §3) decode as the reference decoded them. For failures only the verdict is compared.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  decodeAstFC,
  decodeAstPrompting,
  decodeExecuteFC,
  decodeExecutePrompting,
  type DecodeResult,
} from '../../../src/exec/decode/index.js';
import type { PyValue } from '../../../src/py/value.js';
import { asJson, conformanceDir, get, readJsonLines } from './helpers.js';

const dir = conformanceDir();

/** The expected value, or undefined when the reference failed (`{"error": "..."}`). */
function expected(value: PyValue): PyValue | undefined {
  return value instanceof Map && value.has('error') ? undefined : value;
}

function check(actual: DecodeResult<PyValue>, want: PyValue | undefined): void {
  if (want === undefined) {
    expect(actual.ok).toBe(false);
    return;
  }
  expect(actual).toMatchObject({ ok: true });
  if (actual.ok) expect(asJson(actual.value)).toBe(asJson(want));
}

describe.skipIf(dir === undefined)('decode_cases.jsonl', () => {
  const cases = dir === undefined ? [] : readJsonLines(join(dir, 'requests', 'decode_cases.jsonl'));

  it('has the 34 cases', () => {
    expect(cases).toHaveLength(34);
  });

  for (const c of cases) {
    const mode = get(c, 'mode') as string;
    const name = `${mode} ${String(get(c, 'handler'))}: ${String(get(c, 'case'))}`;
    const result = get(c, 'result');
    const hasToolCallTag = String(get(c, 'case')).startsWith('has_tool_call_tag=True');
    it(name, () => {
      const ast = mode === 'FC' ? decodeAstFC(result) : decodeAstPrompting(result, 'python', hasToolCallTag);
      check(ast, expected(get(c, 'decode_ast')));
      const exec = mode === 'FC' ? decodeExecuteFC(result) : decodeExecutePrompting(result, hasToolCallTag);
      check(exec as DecodeResult<PyValue>, expected(get(c, 'decode_execute')));
    });
  }
});
