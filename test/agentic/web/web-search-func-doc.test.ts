import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REQUIRED } from '../../../src/sim/simulated-api.js';
import { webApi } from './web-test-helpers.js';

const dataDir = process.env.BFCL_DATA_DIR;

interface FuncDoc {
  name: string;
  parameters: { properties: Record<string, { type: string; default?: unknown; enum?: string[] }>; required: string[] };
}

describe.skipIf(dataDir === undefined || dataDir === '')('web_search.json function doc against WebSearchAPI', () => {
  const docs = (): FuncDoc[] =>
    readFileSync(join(dataDir!, 'multi_turn_func_doc', 'web_search.json'), 'utf8')
      .split('\n')
      .filter((line) => line.trim() !== '')
      .map((line) => JSON.parse(line) as FuncDoc);

  it('documents exactly our methods, parameters, required ones and defaults', () => {
    const signatures = webApi({})._signatures;
    expect(docs().map((doc) => doc.name)).toEqual(Object.keys(signatures));
    for (const doc of docs()) {
      const params = signatures[doc.name]!;
      expect(Object.keys(doc.parameters.properties)).toEqual(params.map((p) => p.name));
      expect(doc.parameters.required).toEqual(params.filter((p) => p.default === REQUIRED).map((p) => p.name));
      for (const param of params) {
        if (param.default === REQUIRED) continue;
        const documented = doc.parameters.properties[param.name]!.default;
        // Python ints are bigints here; the doc's JSON numbers are plain numbers.
        expect(typeof param.default === 'bigint' ? BigInt(documented as number) : documented).toEqual(param.default);
      }
    }
  });

  it('lists the fetch modes we implement', () => {
    expect(docs().find((doc) => doc.name === 'fetch_url_content')!.parameters.properties.mode!.enum).toEqual(['raw', 'markdown', 'truncate']);
  });
});
