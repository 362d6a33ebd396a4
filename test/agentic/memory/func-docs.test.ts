/**
 * The backends' method signatures against the official function docs (BFCL_DATA_DIR): same method
 * names, the same parameters in the same order, defaults where the docs give one. Skipped without data.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { HashEmbedder } from '../../../src/agentic/memory/hash-embedder.js';
import { MEMORY_CLASSES, createMemoryInstance, type MemoryClassName } from '../../../src/agentic/memory/memory-classes.js';
import { REQUIRED } from '../../../src/sim/simulated-api.js';
import { FUNC_DOC_FILE_BY_CLASS } from '../../../src/sim/registry.js';
import { EMPTY_CONTEXT } from '../../helpers/sim.js';
import { makeKit } from './memory-kit.js';

const dataDir = process.env.BFCL_DATA_DIR;

interface FuncDoc {
  readonly name: string;
  readonly parameters: { readonly properties: Record<string, { readonly default?: unknown }>; readonly required: readonly string[] };
}

describe.skipIf(dataDir === undefined || dataDir === '')('memory backends against multi_turn_func_doc (BFCL_DATA_DIR)', () => {
  it.each(Object.keys(MEMORY_CLASSES) as MemoryClassName[])('%s matches its func doc', (className) => {
    const file = join(dataDir!, 'multi_turn_func_doc', FUNC_DOC_FILE_BY_CLASS[className]!);
    const docs = readFileSync(file, 'utf8')
      .split('\n')
      .filter((line) => line.trim() !== '')
      .map((line) => JSON.parse(line) as FuncDoc);
    const signatures = createMemoryInstance(className, EMPTY_CONTEXT, makeKit(new HashEmbedder()).deps)._signatures;
    expect(Object.keys(signatures).sort()).toEqual(docs.map((doc) => doc.name).sort());
    for (const doc of docs) {
      const params = signatures[doc.name]!;
      expect(params.map((p) => p.name), doc.name).toEqual(Object.keys(doc.parameters.properties));
      for (const param of params) {
        const documented = doc.parameters.properties[param.name]!;
        const required = doc.parameters.required.includes(param.name);
        expect(param.default === REQUIRED, `${doc.name}.${param.name} required`).toBe(required);
        if (!required) expect(param.default, `${doc.name}.${param.name} default`).toBe(BigInt(documented.default as number));
      }
    }
  });
});
