import { describe, expect, it } from 'vitest';

import { preparesCalls } from '../../../src/agentic/memory/call-preparer.js';
import { HashEmbedder } from '../../../src/agentic/memory/hash-embedder.js';
import { MemoryApi } from '../../../src/agentic/memory/memory-api.js';
import { MEMORY_CLASSES, createMemoryInstance, isMemoryClass } from '../../../src/agentic/memory/memory-classes.js';
import { memorySnapshotPaths } from '../../../src/agentic/memory/memory-api.js';
import { FUNC_DOC_FILE_BY_CLASS, OMIT_STATE_INFO_CLASSES } from '../../../src/sim/registry.js';
import { EMPTY_CONTEXT } from '../../helpers/sim.js';
import { makeKit, memoryConfig } from './memory-kit.js';

describe('memory class registry', () => {
  it('names the three backends as the reference does, all known to the sim registry tables', () => {
    expect(Object.keys(MEMORY_CLASSES)).toEqual(['MemoryAPI_kv', 'MemoryAPI_vector', 'MemoryAPI_rec_sum']);
    for (const name of Object.keys(MEMORY_CLASSES)) {
      expect(OMIT_STATE_INFO_CLASSES.has(name)).toBe(true);
      expect(FUNC_DOC_FILE_BY_CLASS[name]).toBe(`memory_${name.slice('MemoryAPI_'.length)}.json`);
    }
  });

  it.each([
    ['MemoryAPI_kv', true],
    ['MemoryAPI_vector', true],
    ['MemoryAPI_rec_sum', true],
    ['MemoryAPI', false],
    ['GorillaFileSystem', false],
    ['toString', false],
  ])('isMemoryClass(%s) = %s', (name, expected) => {
    expect(isMemoryClass(name)).toBe(expected);
  });

  it.each(['MemoryAPI_kv', 'MemoryAPI_vector', 'MemoryAPI_rec_sum'] as const)('creates %s, loads and flushes it', (name) => {
    const kit = makeKit(new HashEmbedder());
    const instance = createMemoryInstance(name, EMPTY_CONTEXT, kit.deps);
    expect(instance).toBeInstanceOf(MemoryApi);
    expect(instance._className).toBe(name);
    const backend = name.slice('MemoryAPI_'.length);
    instance._loadScenario(memoryConfig(`memory_${backend}_prereq_0-student-0`, 'student'), false);
    instance._flushSnapshot();
    expect([...kit.store.files.keys()]).toEqual([
      `/results/gpt-4o-2024-11-20-FC/agentic/memory/${backend}/memory_snapshot/prereq_checkpoints/memory_${backend}_prereq_0-student-0.json`,
      `/results/gpt-4o-2024-11-20-FC/agentic/memory/${backend}/memory_snapshot/student_final.json`,
    ]);
    // Only the vector backend has work to do before a call.
    expect(preparesCalls(instance)).toBe(name === 'MemoryAPI_vector');
    // Neither flushing nor preparing is a tool the model can call.
    expect(Object.keys(instance._signatures).some((method) => method.startsWith('_'))).toBe(false);
  });
});

describe('memorySnapshotPaths', () => {
  it.each([
    ['memory_kv_prereq_3-customer-3', 'customer', '/r/agentic/memory/kv/memory_snapshot', '/prereq_checkpoints', '/customer_final.json'],
    ['memory_rec_sum_12-customer-12', 'customer', '/r/agentic/memory/rec_sum/memory_snapshot', '', '/customer_final.json'],
    ['memory_vector_prereq_22-student-0', 'student', '/r/agentic/memory/vector/memory_snapshot', '/prereq_checkpoints', '/student_final.json'],
  ])('%s (%s) -> %s', (testId, scenario, folder, ownFolder, latest) => {
    expect(memorySnapshotPaths('/r/', testId, scenario)).toEqual({ folder, snapshotFolder: folder + ownFolder, latestFile: folder + latest });
  });
});
