import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { MemoryAPI_kv } from '../../../src/agentic/memory/memory-api-kv.js';
import { NodeMemorySnapshotStore } from '../../../src/agentic/memory/node-memory-snapshot-store.js';
import { pyDict } from '../../../src/py/value.js';
import { EMPTY_CONTEXT } from '../../helpers/sim.js';

let root: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'bfcl-memory-store-'));
});
afterEach(() => {
  rmSync(root, { recursive: true, force: true });
});

describe('NodeMemorySnapshotStore', () => {
  const store = new NodeMemorySnapshotStore();

  it('writes the exact text, creating folders, and reads it back', () => {
    const path = join(root, 'a', 'b', 'customer_final.json');
    store.writeText(path, '{\n    "memory": "x"\n}');
    expect(readFileSync(path, 'utf8')).toBe('{\n    "memory": "x"\n}');
    expect(store.readText(path)).toBe('{\n    "memory": "x"\n}');
    store.writeText(path, '{}');
    expect(store.readText(path)).toBe('{}');
  });

  it('answers undefined for a missing file, also below a file', () => {
    expect(store.readText(join(root, 'missing.json'))).toBeUndefined();
    writeFileSync(join(root, 'file'), 'x');
    expect(store.readText(join(root, 'file', 'below.json'))).toBeUndefined();
  });

  it('throws for a folder in place of the file', () => {
    mkdirSync(join(root, 'dir.json'));
    expect(() => store.readText(join(root, 'dir.json'))).toThrow(/EISDIR/);
  });

  it('carries a kv memory from one entry to the next on disk', () => {
    const deps = { snapshots: store, warn: () => undefined };
    const config = (testId: string) => pyDict({ model_result_dir: root, scenario: 'student', test_id: testId, test_category: 'memory_kv_prereq' });
    const first = new MemoryAPI_kv(EMPTY_CONTEXT, deps);
    first._loadScenario(config('memory_kv_prereq_22-student-0'), false);
    first.core_memory_add('major', 'Biology – minor in Música');
    first._flushSnapshot();
    const expected = '{\n    "core_memory": {\n        "major": "Biology \\u2013 minor in M\\u00fasica"\n    },\n    "archival_memory": {}\n}';
    expect(readFileSync(join(root, 'agentic/memory/kv/memory_snapshot/prereq_checkpoints/memory_kv_prereq_22-student-0.json'), 'utf8')).toBe(expected);
    expect(readFileSync(join(root, 'agentic/memory/kv/memory_snapshot/student_final.json'), 'utf8')).toBe(expected);
    const second = new MemoryAPI_kv(EMPTY_CONTEXT, deps);
    second._loadScenario(config('memory_kv_80-student-0'), false);
    expect(second.core_memory.get('major')).toBe('Biology – minor in Música');
  });
});
