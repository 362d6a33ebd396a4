import { existsSync, mkdtempSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import {
  ERROR_CLASSES,
  ERROR_TYPE_CLASSES,
  classifyErrorType,
  classifyFailure,
  errorTypeOf,
  readTaxonomySidecar,
  summarizeTaxonomy,
  taxonomyOfScoreFile,
  taxonomySidecarPath,
  writeTaxonomySidecar,
} from '../../src/evaluate/error-taxonomy.js';
import { parseJsonLossless } from '../../src/py/json.js';
import { pyDict, type PyDict } from '../../src/py/value.js';

/** Every error_type string in the reference's bfcl_eval (grep of the checker sources), and ours. */
const REFERENCE_ERROR_TYPES = [
  'agentic:answer_not_found',
  'agentic:inference_error',
  'agentic:no_last_message',
  'ast_decoder:decoder_failed',
  'ast_decoder:decoder_wrong_output_format',
  'dict_checker:unclear',
  'irrelevance_error:decoder_success',
  'list_dict_checker:unclear',
  'multi_turn:empty_turn_model_response',
  'multi_turn:execution_response_mismatch',
  'multi_turn:force_terminated',
  'multi_turn:inference_error',
  'multi_turn:instance_state_mismatch',
  'multi_turn:irrelevance_error:decoder_success',
  'multi_turn:method_invoke_order_mismatch',
  'multiple_function_checker:wrong_count',
  'parallel_function_checker_enforce_order:wrong_count',
  'parallel_function_checker_no_order:cannot_find_match',
  'parallel_function_checker_no_order:wrong_count',
  'relevance_error:decoder_failed',
  'simple_function_checker:missing_optional',
  'simple_function_checker:missing_required',
  'simple_function_checker:unclear',
  'simple_function_checker:unexpected_param',
  'simple_function_checker:wrong_count',
  'simple_function_checker:wrong_func_name',
  'type_error:java',
  'type_error:js',
  'type_error:nested',
  'type_error:simple',
  'value_error:dict_key',
  'value_error:dict_value',
  'value_error:list/tuple',
  'value_error:list_dict_count',
  'value_error:others',
  'value_error:string',
  'bfcl_ts:missing_result',
  'bfcl_ts:malformed_result_line',
];

const line = (text: string): PyDict => parseJsonLossless(text) as PyDict;

describe('classifyErrorType', () => {
  it('maps every reference error type explicitly', () => {
    for (const type of REFERENCE_ERROR_TYPES) expect(ERROR_TYPE_CLASSES.has(type), type).toBe(true);
    expect([...ERROR_TYPE_CLASSES.keys()].sort()).toEqual([...REFERENCE_ERROR_TYPES].sort());
  });

  it.each([
    ['ast_decoder:decoder_failed', 'parse_failure'],
    ['simple_function_checker:wrong_func_name', 'wrong_function'],
    ['parallel_function_checker_no_order:wrong_count', 'wrong_function'],
    ['simple_function_checker:missing_required', 'missing_parameter'],
    ['simple_function_checker:missing_optional', 'missing_parameter'],
    ['simple_function_checker:unexpected_param', 'extra_parameter'],
    ['type_error:nested', 'type_mismatch'],
    ['value_error:list/tuple', 'value_mismatch'],
    ['multi_turn:instance_state_mismatch', 'state_mismatch'],
    ['multi_turn:execution_response_mismatch', 'response_subset_miss'],
    ['multi_turn:force_terminated', 'step_limit'],
    ['multi_turn:empty_turn_model_response', 'empty_turn'],
    ['multi_turn:inference_error', 'infrastructure_error'],
    ['bfcl_ts:missing_result', 'infrastructure_error'],
    ['agentic:answer_not_found', 'value_mismatch'],
  ])('%s → %s', (type, expected) => {
    expect(classifyErrorType(type)).toBe(expected);
  });

  it('falls back on the family of unknown types, else other', () => {
    expect(classifyErrorType('type_error:future')).toBe('type_mismatch');
    expect(classifyErrorType('value_error:future')).toBe('value_mismatch');
    expect(classifyErrorType('bfcl_ts:future')).toBe('infrastructure_error');
    expect(classifyErrorType('something:else')).toBe('other');
    expect(classifyErrorType('')).toBe('other');
  });
});

describe('classifyFailure', () => {
  it('reads the error type at the top level or inside a multi-turn error dict', () => {
    expect(errorTypeOf(line('{"id": "x", "error": ["e"], "error_type": "value_error:string"}'))).toBe('value_error:string');
    expect(errorTypeOf(line('{"id": "x", "error": {"error_message": "m", "error_type": "multi_turn:force_terminated"}}'))).toBe(
      'multi_turn:force_terminated',
    );
  });

  it('counts an inference error as infrastructure, whatever the checker said', () => {
    const record = line('{"id": "simple_python_2", "error_type": "ast_decoder:decoder_failed", "model_result_raw": "Error during inference: timeout"}');
    expect(classifyFailure(record)).toBe('infrastructure_error');
    const relevance = line('{"id": "live_relevance_1", "model_result": "Error during inference: 500", "decoded_result": null, "error_type": "relevance_error:decoder_failed"}');
    expect(classifyFailure(relevance)).toBe('infrastructure_error');
  });

  it('gives an unmatched parallel call the class of its most specific candidate', () => {
    const record = (subTypes: string[]): PyDict =>
      line(
        JSON.stringify({
          id: 'parallel_1',
          error: ['Could not find a matching function...', Object.fromEntries(subTypes.map((t, i) => [`Model Result Index ${i}`, { sub_error: ['x'], sub_error_type: t }]))],
          error_type: 'parallel_function_checker_no_order:cannot_find_match',
        }),
      );
    expect(classifyFailure(record(['simple_function_checker:wrong_func_name', 'type_error:simple']))).toBe('type_mismatch');
    expect(classifyFailure(record(['simple_function_checker:wrong_func_name']))).toBe('wrong_function');
    expect(classifyFailure(record(['value_error:string', 'simple_function_checker:missing_required']))).toBe('value_mismatch');
    expect(classifyFailure(record([]))).toBe('wrong_function');
  });

  it('tells a relevance miss without a call from undecodable output', () => {
    const noCall = line('{"id": "live_relevance_0", "model_result": [], "decoded_result": [], "error_type": "relevance_error:decoder_failed"}');
    const garbage = line('{"id": "live_relevance_0", "model_result": "[f(", "decoded_result": null, "error_type": "relevance_error:decoder_failed"}');
    expect(classifyFailure(noCall)).toBe('empty_turn');
    expect(classifyFailure(garbage)).toBe('parse_failure');
  });

  it('counts an agentic answer that never came after 21 call steps as a step limit', () => {
    const steps = (n: number) => JSON.stringify({ id: 'web_search_0', model_result: [Array.from({ length: n }, () => '[f()]')], error: { error_type: 'agentic:no_last_message' } });
    expect(classifyFailure(line(steps(21)))).toBe('step_limit');
    expect(classifyFailure(line(steps(3)))).toBe('other');
  });
});

describe('summaries and the sidecar file', () => {
  const failures = [
    line('{"id": "simple_python_1", "error_type": "value_error:string"}'),
    line('{"id": "simple_python_4", "error_type": "type_error:simple"}'),
    line('{"id": "simple_python_5", "error_type": "value_error:string"}'),
  ];

  it('counts every class (zeros included, in order) and every reference type', () => {
    const taxonomy = summarizeTaxonomy(failures, 6);
    expect([...taxonomy.classes.keys()]).toEqual([...ERROR_CLASSES]);
    expect(taxonomy.classes.get('value_mismatch')).toBe(2);
    expect(taxonomy.classes.get('type_mismatch')).toBe(1);
    expect([...taxonomy.errorTypes]).toEqual([
      ['type_error:simple', 1],
      ['value_error:string', 2],
    ]);
    expect(taxonomy.entries.map((e) => e.id)).toEqual(['simple_python_1', 'simple_python_4', 'simple_python_5']);
  });

  it('reads a score file text', () => {
    const text = ['{"accuracy": 0.5, "correct_count": 3, "total_count": 6}', ...failures.map((f) => JSON.stringify(Object.fromEntries(f)))].join('\n') + '\n';
    const taxonomy = taxonomyOfScoreFile(text);
    expect(taxonomy.totalCount).toBe(6);
    expect(taxonomy.entries).toHaveLength(3);
  });

  it('writes the sidecar beside the score file and reads it back', () => {
    const dir = mkdtempSync(join(tmpdir(), 'bfcl-taxonomy-'));
    const scoreFile = join(dir, 'm', 'non_live', 'BFCL_v4_simple_python_score.json');
    expect(taxonomySidecarPath(scoreFile)).toBe(join(dir, 'm', 'non_live', 'BFCL_v4_simple_python_taxonomy.json'));
    const path = writeTaxonomySidecar(scoreFile, 'm', 'simple_python', summarizeTaxonomy(failures, 6));
    const sidecar = readTaxonomySidecar(path)!;
    expect(sidecar).toMatchObject({ model: 'm', test_category: 'simple_python', total_count: 6, failed_count: 3 });
    expect(sidecar.classes.value_mismatch).toBe(2);
    expect(sidecar.error_types).toEqual({ 'type_error:simple': 1, 'value_error:string': 2 });
    expect(sidecar.entries[1]).toEqual({ id: 'simple_python_4', class: 'type_mismatch', error_type: 'type_error:simple' });
    expect(readTaxonomySidecar(join(dir, 'absent.json'))).toBeUndefined();
    expect(existsSync(scoreFile)).toBe(false); // the score file itself is never touched
  });

  it('classifies a record without an id', () => {
    expect(classifyFailure(pyDict({ error_type: 'value_error:others' }))).toBe('value_mismatch');
  });
});

const CONFORMANCE = process.env['BFCL_CONFORMANCE_DIR'] ?? '/work/shared/conformance';

describe.skipIf(!existsSync(join(CONFORMANCE, 'synthetic', 'score')))("the reference's own score files", () => {
  function* scoreFiles(dir: string): Generator<string> {
    for (const name of readdirSync(dir).sort()) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) yield* scoreFiles(path);
      else if (name.endsWith('_score.json')) yield path;
    }
  }

  it('classify every failure of the synthetic and real runs, none as "other"', () => {
    let failures = 0;
    for (const root of ['synthetic', 'real-run']) {
      for (const file of scoreFiles(join(CONFORMANCE, root, 'score'))) {
        const taxonomy = taxonomyOfScoreFile(readFileSync(file, 'utf8'));
        failures += taxonomy.entries.length;
        expect(taxonomy.classes.get('other'), file).toBe(0);
      }
    }
    expect(failures).toBeGreaterThan(5000);
  });
});
