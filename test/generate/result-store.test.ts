import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import {
  ResultWriter,
  asideFileOf,
  removeStaleLines,
  resultFileOfId,
  resultFilesOfCategory,
  resultLineText,
  scanExistingResults,
  sortResultFile,
} from '../../src/generate/result-store.js';
import { PySet, type PyValue } from '../../src/py/value.js';

const tmp = (): string => mkdtempSync(join(tmpdir(), 'bfcl-store-'));

describe('result file paths', () => {
  it('follow the reference layout', () => {
    expect(resultFileOfId('/r/m', 'live_simple_3-2-0')).toBe('/r/m/live/BFCL_v4_live_simple_result.json');
    expect(resultFileOfId('/r/m', 'format_sensitivity_7:ret_fmt=json&tool_call_tag=True&func_doc_fmt=xml&prompt_fmt=plaintext&style=classic:simple_python_1')).toBe(
      '/r/m/format_sensitivity/BFCL_v4_format_sensitivity_result.json',
    );
    expect(resultFileOfId('/r/m', 'memory_kv_prereq_3-student-0')).toBe('/r/m/agentic/memory/kv/BFCL_v4_memory_kv_prereq_result.json');
    expect(resultFilesOfCategory('/r/m', 'memory_kv')).toEqual([
      '/r/m/agentic/memory/kv/BFCL_v4_memory_kv_result.json',
      '/r/m/agentic/memory/kv/BFCL_v4_memory_kv_prereq_result.json',
    ]);
  });
});

describe('result lines', () => {
  it('are json.dumps (ASCII) of the entry, values JSON cannot hold written as their str()', () => {
    const line = new Map<string, PyValue>([
      ['id', 'simple_python_0'],
      ['result', 'caf\u00e9'],
      ['odd', new PySet([1n])],
    ]);
    expect(resultLineText(line)).toBe('{"id": "simple_python_0", "result": "caf\\u00e9", "odd": "{1}"}');
  });
});

describe('sorting at the end', () => {
  it('rewrites a file only when the id order changes, then without ASCII escapes (ensure_ascii=False)', () => {
    const file = join(tmp(), 'BFCL_v4_simple_python_result.json');
    const sorted = '{"id": "simple_python_2", "result": "caf\\u00e9"}\n{"id": "simple_python_10", "result": 1.0}\n';
    writeFileSync(file, sorted);
    expect(sortResultFile(file)).toBe(false);
    expect(readFileSync(file, 'utf8')).toBe(sorted);

    writeFileSync(file, '{"id": "simple_python_10", "result": 1.0}\n{"id": "simple_python_2", "result": "caf\\u00e9"}\n');
    expect(sortResultFile(file)).toBe(true);
    expect(readFileSync(file, 'utf8')).toBe('{"id": "simple_python_2", "result": "café"}\n{"id": "simple_python_10", "result": 1.0}\n');
  });

  it('turns the escapes of lines the run wrote into characters exactly as parsing and re-dumping would', () => {
    const values: PyValue[] = [
      'caf\u00e9 \u4e2d\u6587 \ud83d\ude00 lone \ud83d end',
      'control \u0001\u001f \u0080 \u2028 tab\t quote" backslash-u \\u00e9 \\\u00e9 del \u007f',
      new Map<string, PyValue>([['k\u00fc', [1.0, -0.0, 12345678901234567890n, null, true]]]),
    ];
    const dir = tmp();
    const writer = new ResultWriter(dir, 'append');
    const ids = ['simple_python_10', 'simple_python_9', 'simple_python_2'];
    const file = writer.write(new Map<string, PyValue>([['id', ids[0]!], ['result', values[0]!]]));
    writer.write(new Map<string, PyValue>([['id', ids[1]!], ['result', values[1]!]]));
    writer.write(new Map<string, PyValue>([['id', ids[2]!], ['result', values[2]!]]));
    const copy = join(dir, 'BFCL_v4_simple_python_result.json');
    writeFileSync(copy, readFileSync(file));
    expect(sortResultFile(file, writer.idsWrittenTo(file))).toBe(true);
    expect(sortResultFile(copy)).toBe(true);
    expect(readFileSync(file, 'utf8')).toBe(readFileSync(copy, 'utf8'));
    expect(readFileSync(file, 'utf8')).toContain('caf\u00e9 \u4e2d\u6587 \ud83d\ude00');
  });

  it('reads format-sensitivity ids from the line start too', () => {
    const file = join(tmp(), 'BFCL_v4_format_sensitivity_result.json');
    const id = (k: number): string => `format_sensitivity_${k}:ret_fmt=python&tool_call_tag=False&func_doc_fmt=json&prompt_fmt=plaintext&style=classic:simple_python_0`;
    writeFileSync(file, `{"id": "${id(11)}", "result": ""}\n{"id": "${id(3)}", "result": ""}\n`);
    expect(sortResultFile(file)).toBe(true);
    expect(readFileSync(file, 'utf8')).toBe(`{"id": "${id(3)}", "result": ""}\n{"id": "${id(11)}", "result": ""}\n`);
  });
});

describe('existing results', () => {
  it('count errors as not done, and cleaning keeps every other line byte for byte', () => {
    const file = join(tmp(), 'BFCL_v4_simple_python_result.json');
    const good = '{"id": "simple_python_0", "result": "caf\u00e9 kept as written"}';
    const failed = '{"id": "simple_python_1", "result": "Error during inference: 500", "traceback": "t"}';
    const otherFailed = '{"id": "simple_python_2", "result": "Error during inference: 429", "traceback": "t"}';
    writeFileSync(file, `${good}\n${failed}\n${otherFailed}\n{"id": "simple_py`);
    const existing = scanExistingResults([file, join(tmp(), 'missing.json')], { allowOverwrite: false, runIds: false });
    expect([...existing.doneIds]).toEqual(['simple_python_0']);
    expect([...existing.failedIds]).toEqual(['simple_python_1', 'simple_python_2']);
    expect(existing.unreadable).toEqual([{ file, line: 4, reason: 'not valid JSON (cut short?)' }]);
    // Only the failed entries being regenerated lose their lines (and unreadable lines always go).
    expect(removeStaleLines([file], new Set(['simple_python_1']))).toEqual([file]);
    expect(readFileSync(file, 'utf8')).toBe(`${good}\n${otherFailed}\n`);
    expect(removeStaleLines([file], new Set())).toEqual([]);
  });

  it('say why a line cannot be used, and find ids written twice', () => {
    const file = join(tmp(), 'BFCL_v4_simple_python_result.json');
    const first = '{"id": "simple_python_0", "result": []}';
    writeFileSync(file, [first, '{"id": 7, "result": []}', '[1, 2]', '{"result": []}', '{"id": "simple_python_0", "result": [1]}', 'Error during inference: x', ''].join('\n'));
    const existing = scanExistingResults([file], { allowOverwrite: false, runIds: false });
    expect(existing.unreadable.map((u) => [u.line, u.reason])).toEqual([
      [2, 'its "id" is not a string (7)'],
      [3, 'not a JSON object'],
      [4, 'no "id"'],
      [6, 'not valid JSON (cut short?)'],
    ]);
    expect(existing.duplicates).toEqual([{ file, id: 'simple_python_0', lines: [1, 5] }]);
    // Cleaning keeps the first result of a duplicated id.
    removeStaleLines([file], new Set());
    expect(readFileSync(file, 'utf8')).toBe(`${first}\n`);
  });

  it('keep permanent errors apart (skipped unless retryErrors); a result beats an error line of the same id', () => {
    const file = join(tmp(), 'BFCL_v4_simple_python_result.json');
    const permanent = '{"id": "simple_python_1", "result": "Error during inference: 400", "traceback": "t", "permanent_error": "HTTP 400"}';
    const error = '{"id": "simple_python_2", "result": "Error during inference: 500", "traceback": "t"}';
    const result = '{"id": "simple_python_2", "result": []}';
    writeFileSync(file, `${permanent}\n${error}\n${result}\n`);
    const existing = scanExistingResults([file], { allowOverwrite: false, runIds: false });
    expect([...existing.permanentIds]).toEqual([['simple_python_1', 'HTTP 400']]);
    expect([...existing.failedIds]).toEqual([]);
    expect([...existing.doneIds]).toEqual(['simple_python_2']);
    const retrying = scanExistingResults([file], { allowOverwrite: false, runIds: false, retryErrors: true });
    expect([...retrying.failedIds]).toEqual(['simple_python_1']);
    expect(retrying.permanentIds.size).toBe(0);
    removeStaleLines([file], new Set());
    expect(readFileSync(file, 'utf8')).toBe(`${permanent}\n${result}\n`);
  });

  it('are left alone by --allow-overwrite (only an interrupted run\'s .new file is read), and by --allow-overwrite --run-ids', () => {
    const dir = tmp();
    const file = join(dir, 'BFCL_v4_simple_python_result.json');
    writeFileSync(file, '{"id": "simple_python_0", "result": []}\n');
    expect(scanExistingResults([file], { allowOverwrite: true, runIds: true }).doneIds.size).toBe(0);
    expect(scanExistingResults([file], { allowOverwrite: true, runIds: false }).doneIds.size).toBe(0);
    expect(readFileSync(file, 'utf8')).toBe('{"id": "simple_python_0", "result": []}\n');
    writeFileSync(asideFileOf(file), '{"id": "simple_python_1", "result": []}\n');
    const resumed = scanExistingResults([file], { allowOverwrite: true, runIds: false });
    expect([...resumed.doneIds]).toEqual(['simple_python_1']);
    expect(resumed.scannedFiles).toEqual([`${file}.new`]);
  });
});

describe('ResultWriter in replace mode (--allow-overwrite)', () => {
  it('writes to the .new twin and replaces the file, sorted, once every expected entry is written', () => {
    const dir = tmp();
    const file = resultFileOfId(dir, 'simple_python_0');
    const writer = new ResultWriter(dir, 'replace', new Map([[file, 2]]));
    mkdirSync(join(dir, 'non_live'), { recursive: true });
    writeFileSync(file, '{"id": "simple_python_0", "result": "old"}\n');
    writer.write(new Map<string, PyValue>([['id', 'simple_python_1'], ['result', 'new \u00e9']]));
    expect(readFileSync(file, 'utf8')).toBe('{"id": "simple_python_0", "result": "old"}\n');
    expect(writer.unfinishedAsideFiles()).toEqual([`${file}.new`]);
    writer.write(new Map<string, PyValue>([['id', 'simple_python_0'], ['result', 'new']]));
    expect(readFileSync(file, 'utf8')).toBe('{"id": "simple_python_0", "result": "new"}\n{"id": "simple_python_1", "result": "new é"}\n');
    expect(writer.replacedFiles).toEqual([file]);
    expect(writer.unfinishedAsideFiles()).toEqual([]);
    expect(existsSync(`${file}.new`)).toBe(false);
  });
});

describe('ResultWriter in normal mode', () => {
  it('appends each line at once (visible before close), and appends again after close', () => {
    const writer = new ResultWriter(tmp(), 'append');
    const file = writer.write(new Map<string, PyValue>([['id', 'simple_python_1'], ['result', 'caf\u00e9']]));
    writer.write(new Map<string, PyValue>([['id', 'simple_python_0'], ['result', 'b']]));
    expect(readFileSync(file, 'utf8')).toBe('{"id": "simple_python_1", "result": "caf\\u00e9"}\n{"id": "simple_python_0", "result": "b"}\n');
    writer.close();
    writer.write(new Map<string, PyValue>([['id', 'simple_python_2'], ['result', 'c']]));
    writer.close();
    expect(readFileSync(file, 'utf8').split('\n')).toHaveLength(4);
    expect([...writer.idsWrittenTo(file)]).toEqual(['simple_python_1', 'simple_python_0', 'simple_python_2']);
  });
});

describe('ResultWriter in update mode', () => {
  it('merges by id and keeps the file sorted, re-dumping existing lines as ASCII JSON', () => {
    const dir = tmp();
    const file = join(dir, 'm', 'non_live', 'BFCL_v4_simple_python_result.json');
    const writer = new ResultWriter(join(dir, 'm'), 'append');
    writer.write(new Map<string, PyValue>([['id', 'simple_python_5'], ['result', 'caf\u00e9']]));
    const update = new ResultWriter(join(dir, 'm'), 'update');
    update.write(new Map<string, PyValue>([['id', 'simple_python_1'], ['result', 'new']]));
    update.write(new Map<string, PyValue>([['id', 'simple_python_5'], ['result', 'replaced']]));
    expect(readFileSync(file, 'utf8')).toBe('{"id": "simple_python_1", "result": "new"}\n{"id": "simple_python_5", "result": "replaced"}\n');
  });
});
