import { describe, expect, it } from 'vitest';

import { addHintToFunctionDocs } from '../../src/data/language-hint.js';
import { javaTypeConverter } from '../../src/evaluate/ast/java-type-converter.js';
import { jsTypeConverter } from '../../src/evaluate/ast/js-type-converter.js';
import { answerCalls } from '../../src/models/oracle-answers.js';
import { groundTruthCall } from '../../src/models/oracle-calls.js';
import { ORACLE_MODEL_CONFIG, ORACLE_NO_CALL_TEXT, createOracleModel } from '../../src/models/oracle.js';
import { parseJsonLossless } from '../../src/py/json.js';
import { pyRepr } from '../../src/py/repr.js';
import type { PyValue } from '../../src/py/value.js';
import type { Model } from '../../src/spec/model.js';

const py = (json: string): PyValue => parseJsonLossless(json);

/** A function doc with the given `properties` JSON (each given a description) and required names. */
function doc(name: string, properties: string, required: string[]): PyValue {
  const props = JSON.parse(properties) as Record<string, Record<string, unknown>>;
  for (const prop of Object.values(props)) prop['description'] = 'p';
  return py(JSON.stringify({ name, description: 'd', parameters: { type: 'dict', properties: props, required } }));
}

const argsOf = (calls: ReturnType<typeof answerCalls>, i = 0): string => pyRepr(calls[i]!.args);

describe('oracle single-turn answers', () => {
  it('takes the first acceptable value of each parameter and leaves optional ones out', () => {
    const docs = [
      doc(
        'weather.get',
        '{"city": {"type": "string"}, "unit": {"type": "string"}, "day": {"type": "string"}, "note": {"type": "string"}, "opts": {"type": "dict"}, "rows": {"type": "array", "items": {"type": "dict"}}}',
        ['city', 'day'],
      ),
    ];
    const truth = py(
      '[{"weather.get": {"city": ["Paris", "paris"], "unit": ["", "celsius"], "day": [""], "note": [null], "opts": [{"k": ["v", "w"], "extra": ["", 1]}], "rows": [[{"a": [1, 2]}]], "unknown": ["x"]}}]',
    ) as PyValue[];
    const calls = answerCalls(docs, truth, 'python');
    expect(calls.map((c) => c.name)).toEqual(['weather.get']);
    // `unit` is optional; `day` is required although only "" is acceptable; `None` is a value; `unknown` is not documented.
    expect(argsOf(calls)).toBe("{'city': 'Paris', 'day': '', 'note': None, 'opts': {'k': 'v'}, 'rows': [{'a': 1}]}");
  });

  it('writes Java values as source text that the Java type converter turns back into the expected values', () => {
    const raw = doc(
      'Inv.adjust',
      '{"id": {"type": "long"}, "ratio": {"type": "float"}, "on": {"type": "boolean"}, "names": {"type": "ArrayList", "items": {"type": "String"}}, "counts": {"type": "Array", "items": {"type": "integer"}}, "meta": {"type": "HashMap"}, "builder": {"type": "any"}, "n": {"type": "integer"}}',
      ['id'],
    );
    // The oracle sees the docs as a model does: with the language hint (every type turned into "string").
    const hinted = addHintToFunctionDocs([raw], 'simple_java', 'simple_java_0');
    const truth = py(
      '[{"Inv.adjust": {"id": [1042], "ratio": [0.5], "on": [true], "names": [["a", "b"]], "counts": [[1, 2]], "meta": [{"format": "epoch"}], "builder": ["reportBuilder"], "n": [-25]}}]',
    ) as PyValue[];
    const [call] = answerCalls(hinted, truth, 'java');
    expect(pyRepr(call!.args)).toBe(
      "{'id': '1042L', 'ratio': '0.5f', 'on': 'true', 'names': 'new ArrayList<>(Arrays.asList(\"a\", \"b\"))', 'counts': 'new int[]{1, 2}', " +
        "'meta': 'new HashMap<String, Object>() {{ put(\"format\", \"epoch\"); }}', 'builder': 'reportBuilder', 'n': '-25'}",
    );
    const args = call!.args;
    const back = (param: string, type: string, nested?: string): string => pyRepr(javaTypeConverter(args.get(param) as string, type, nested));
    expect(back('id', 'long')).toBe('1042');
    expect(back('ratio', 'float')).toBe('0.5');
    expect(back('on', 'boolean')).toBe('True');
    expect(back('names', 'ArrayList', 'String')).toBe("['a', 'b']");
    expect(back('counts', 'Array', 'integer')).toBe('[1, 2]');
    expect(back('meta', 'HashMap')).toBe("{'format': 'epoch'}");
    expect(back('n', 'integer')).toBe('-25');
  });

  it('writes JavaScript values as source text that the JavaScript type converter reads back', () => {
    const raw = doc(
      'merge',
      '{"name": {"type": "String"}, "big": {"type": "Bigint"}, "flag": {"type": "Boolean"}, "rows": {"type": "array", "items": {"type": "integer"}}, "opts": {"type": "dict", "properties": {"theme": {"type": "String"}}}, "target": {"type": "any"}}',
      ['name'],
    );
    const hinted = addHintToFunctionDocs([raw], 'simple_javascript', 'simple_javascript_0');
    const truth = py('[{"merge": {"name": ["x"], "big": [12], "flag": [false], "rows": [[2, 5]], "opts": [{"theme": ["dark"], "size": [16]}], "target": ["baseSettings"]}}]') as PyValue[];
    const [call] = answerCalls(hinted, truth, 'javascript');
    expect(pyRepr(call!.args)).toBe(
      "{'name': '\"x\"', 'big': '12n', 'flag': 'false', 'rows': '[2, 5]', 'opts': '{theme: \"dark\", size: 16}', 'target': 'baseSettings'}",
    );
    const back = (param: string, type: string, nested?: string): string => pyRepr(jsTypeConverter(call!.args.get(param) as string, type, nested));
    expect(back('name', 'String')).toBe("'x'");
    expect(back('big', 'Bigint')).toBe('12');
    expect(back('rows', 'array', 'integer')).toBe('[2, 5]');
    expect(back('opts', 'dict')).toBe("{'theme': 'dark', 'size': 16}");
  });
});

describe('oracle multi-turn answers', () => {
  const docs = [doc('sort', '{"file_name": {"type": "string"}}', ['file_name']), doc('wc', '{"file_name": {"type": "string"}, "mode": {"type": "string"}}', ['file_name'])];

  it('names positional ground-truth arguments after the documented parameters', () => {
    expect(pyRepr(groundTruthCall("sort('notes.txt')", docs).args)).toBe("{'file_name': 'notes.txt'}");
    expect(pyRepr(groundTruthCall("wc('a.txt', mode='l')", docs).args)).toBe("{'file_name': 'a.txt', 'mode': 'l'}");
    expect(pyRepr(groundTruthCall('wc(file_name="b", mode=\'w\')', docs).args)).toBe("{'file_name': 'b', 'mode': 'w'}");
    expect(() => groundTruthCall("sort('a', 'b')", docs)).toThrow('more positional arguments');
    expect(() => groundTruthCall('nothing(1)', docs)).toThrow('no function doc for nothing');
  });
});

describe('the oracle model', () => {
  const truth = new Map<string, PyValue>([
    ['simple_python_0', py('[{"math.factorial": {"number": [5]}}]')],
    ['multi_turn_base_0', py('[["sort(\'notes.txt\')", "wc(file_name=\'notes.txt\', mode=\'l\')"], [], ["sort(file_name=\'x\')"]]')],
  ]);
  const oracle: Model = createOracleModel({ groundTruth: (id) => truth.get(id) });
  const factorial = doc('math.factorial', '{"number": {"type": "integer"}}', ['number']);
  const files = [doc('sort', '{"file_name": {"type": "string"}}', ['file_name']), doc('wc', '{"file_name": {"type": "string"}, "mode": {"type": "string"}}', ['file_name'])];

  async function ask(entryId: string, functions: PyValue[], turns: number, stepsPerTurn: number): Promise<string[][]> {
    const { conversation } = oracle.startConversation({ entryId, functions, question: [[{ role: 'user', content: 'q' }]], multiTurn: turns > 1 });
    const answers: string[][] = [];
    for (let t = 0; t < turns; t++) {
      if (t === 0) conversation.addFirstTurnMessages([{ role: 'user', content: 'q' }]);
      else conversation.addNextTurnMessages([{ role: 'user', content: 'q' }]);
      const turn: string[] = [];
      for (let s = 0; s < stepsPerTurn; s++) turn.push(pyRepr((await conversation.query()).responses));
      answers.push(turn);
    }
    return answers;
  }

  it('answers single-turn entries FC-style, with dots in names written as underscores', async () => {
    expect(oracle.mode).toBe('fc');
    // What evaluation needs to know about it.
    expect(ORACLE_MODEL_CONFIG).toMatchObject({ registryName: 'oracle', resultDirName: 'oracle', isFcModel: true, underscoreToDot: true });
    expect(await ask('simple_python_0', [factorial], 1, 1)).toEqual([[`[{'math_factorial': '{"number": 5}'}]`]]);
    expect(oracle.decodeExecute(py('[{"math_factorial": "{\\"number\\": 5}"}]'))).toEqual({ ok: true, value: ['math_factorial(number=5)'] });
  });

  it('calls nothing for irrelevance and some function for relevance', async () => {
    expect(await ask('irrelevance_3', [factorial], 1, 1)).toEqual([[pyRepr(ORACLE_NO_CALL_TEXT)]]);
    expect(await ask('live_relevance_1-1-0', [factorial], 1, 1)).toEqual([[`[{'math_factorial': '{}'}]`]]);
  });

  it('answers each multi-turn turn with its ground-truth calls, then an empty step', async () => {
    expect(await ask('multi_turn_base_0', files, 3, 2)).toEqual([
      [`[{'sort': '{"file_name": "notes.txt"}'}, {'wc': '{"file_name": "notes.txt", "mode": "l"}'}]`, '[]'],
      ['[]', '[]'],
      [`[{'sort': '{"file_name": "x"}'}]`, '[]'],
    ]);
  });

  it('waits the configured delay and stops waiting when interrupted', async () => {
    const slow = createOracleModel({ groundTruth: (id) => truth.get(id), delayMs: 10_000 });
    const { conversation } = slow.startConversation({ entryId: 'simple_python_0', functions: [factorial], question: [], multiTurn: false });
    conversation.addFirstTurnMessages([]);
    const controller = new AbortController();
    const pending = conversation.query({ signal: controller.signal });
    controller.abort();
    await expect(pending).rejects.toThrow('aborted');
  });
});
