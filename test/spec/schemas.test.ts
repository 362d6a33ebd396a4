import { describe, expect, it } from 'vitest';

import { datasetSchemas } from '../../src/spec/schemas.js';

const {
  astPossibleAnswerSchema,
  formatSensitivityIdsSchema,
  memoryEntrySchema,
  memoryPossibleAnswerSchema,
  memoryPrereqEntrySchema,
  multiTurnEntrySchema,
  multiTurnFunctionDocSchema,
  multiTurnPossibleAnswerSchema,
  singleTurnEntrySchema,
  webSearchEntrySchema,
  webSearchPossibleAnswerSchema,
} = datasetSchemas();

const doc = {
  name: 'math.factorial',
  description: 'Factorial.',
  parameters: { type: 'dict', properties: { n: { type: 'integer', description: 'n', default: 5 } }, required: ['n'] },
};
const question = [[{ role: 'user', content: 'hi' }]];

/** The zod path of the first issue, or 'ok'. */
function firstIssue(schema: { safeParse(v: unknown): { success: boolean; error?: { issues: { path: PropertyKey[] }[] } } }, value: unknown): string {
  const result = schema.safeParse(value);
  return result.success ? 'ok' : result.error!.issues[0]!.path.map(String).join('.');
}

describe('datasetSchemas', () => {
  it('builds the schemas once, when first asked for', () => {
    expect(datasetSchemas()).toBe(datasetSchemas());
  });
});

describe('question entry schemas', () => {
  it('accepts the official shapes and keeps unknown fields', () => {
    expect(firstIssue(singleTurnEntrySchema, { id: 'simple_python_0', question, function: [doc], extra: 1 })).toBe('ok');
    expect(
      firstIssue(multiTurnEntrySchema, {
        id: 'multi_turn_miss_func_0',
        question: [[{ role: 'user', content: 'a' }], []],
        initial_config: { GorillaFileSystem: { root: {} } },
        path: ['GorillaFileSystem.ls'],
        involved_classes: ['GorillaFileSystem'],
        missed_function: { '1': ['ls'] },
        excluded_function: [],
      }),
    ).toBe('ok');
    expect(firstIssue(webSearchEntrySchema, { id: 'web_search_0', question, involved_classes: ['WebSearchAPI'] })).toBe('ok');
    expect(firstIssue(memoryEntrySchema, { id: 'memory_0-student-0', question, involved_classes: ['MemoryAPI'], scenario: 'student' })).toBe('ok');
    expect(
      firstIssue(memoryPrereqEntrySchema, { id: 'memory_prereq_0-student-0', topic: 't', question, involved_classes: ['MemoryAPI'], scenario: 'student' }),
    ).toBe('ok');
    expect(firstIssue(multiTurnFunctionDocSchema, { ...doc, response: { type: 'dict', properties: {} } })).toBe('ok');
  });

  it('reports the path of the problem', () => {
    expect(firstIssue(singleTurnEntrySchema, { id: 'x_1', question: [[{ role: 'robot', content: 'hi' }]], function: [] })).toBe('question.0.0.role');
    expect(firstIssue(singleTurnEntrySchema, { id: 'x_1', question, function: [{ ...doc, parameters: { type: 'dict' } }] })).toBe('function.0.parameters.properties');
    expect(firstIssue(singleTurnEntrySchema, { id: '', question, function: [] })).toBe('id');
    expect(firstIssue(multiTurnEntrySchema, { id: 'm_1', question, initial_config: {}, path: [], involved_classes: [], missed_function: {} })).toBe('involved_classes');
    expect(
      firstIssue(multiTurnEntrySchema, { id: 'm_1', question, initial_config: {}, path: [], involved_classes: ['A'], missed_function: { one: [] } }),
    ).toBe('missed_function.one');
    expect(firstIssue(memoryEntrySchema, { id: 'memory_0', question, involved_classes: ['MemoryAPI'], scenario: 'pirate' })).toBe('scenario');
  });
});

describe('possible answer schemas', () => {
  it('accepts the official shapes', () => {
    expect(firstIssue(astPossibleAnswerSchema, { id: 'a_0', ground_truth: [{ f: { x: [1, ''], y: [[3, 5]] } }] })).toBe('ok');
    expect(firstIssue(multiTurnPossibleAnswerSchema, { id: 'm_0', ground_truth: [["cd(folder='a')"], []] })).toBe('ok');
    expect(
      firstIssue(webSearchPossibleAnswerSchema, { id: 'w_0', ground_truth: ['7', 'seven'], source: [{ subquestion: 'q' }], num_hops: 3 }),
    ).toBe('ok');
    expect(firstIssue(memoryPossibleAnswerSchema, { id: 'memory_0-student-0', ground_truth: ['x'], source: null })).toBe('ok');
    expect(firstIssue(formatSensitivityIdsSchema, { simple_python: ['simple_python_1'] })).toBe('ok');
  });

  it('rejects malformed ground truth', () => {
    expect(firstIssue(astPossibleAnswerSchema, { id: 'a_0', ground_truth: [{ f: { x: 1 } }] })).toBe('ground_truth.0.f.x');
    expect(firstIssue(astPossibleAnswerSchema, { id: 'a_0', ground_truth: [{ f: {}, g: {} }] })).toBe('ground_truth.0');
    expect(firstIssue(multiTurnPossibleAnswerSchema, { id: 'm_0', ground_truth: [[1]] })).toBe('ground_truth.0.0');
    expect(firstIssue(formatSensitivityIdsSchema, { simple_python: 'simple_python_1' })).toBe('simple_python');
  });
});
