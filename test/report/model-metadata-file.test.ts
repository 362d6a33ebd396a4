/**
 * Issue #24: leaderboard metadata of models the registry does not know, from
 * `<result dir>/<model dir>/bfcl_model_metadata.json`, used by evaluate's CSVs where the registry's
 * metadata would be (display name, link, cost from the prices, organization, license) and by report.
 */

import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { modelMetadata, modelMetadataResolver } from '../../src/cli/model-metadata.js';
import { MODEL_METADATA_FILE, readModelMetadataFile } from '../../src/report/model-metadata-file.js';
import { UsageError } from '../../src/util/errors.js';
import { cli, singleTurnResults, tempProject, writeResults } from '../inspect/helpers.js';

/** A model folder holding `metadata` (an object, or the file's text) as its metadata file. */
function modelFolder(metadata: unknown): string {
  const dir = join(tempProject(), 'result', 'my-local-model');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, MODEL_METADATA_FILE), typeof metadata === 'string' ? metadata : JSON.stringify(metadata));
  return dir;
}

function errorOf(f: () => unknown): UsageError {
  try {
    f();
  } catch (error) {
    expect(error).toBeInstanceOf(UsageError);
    return error as UsageError;
  }
  throw new Error('expected a UsageError');
}

const FULL = {
  display_name: 'My Local Model (FC)',
  organization: 'Acme Labs',
  license: 'apache-2.0',
  link: 'https://example.com/my-local-model',
  input_price: 1000000,
  output_price: 2000000,
};

describe('readModelMetadataFile', () => {
  it('reads every field, and nothing when there is no file', () => {
    expect(readModelMetadataFile(modelFolder(FULL))).toEqual({
      displayName: 'My Local Model (FC)',
      org: 'Acme Labs',
      license: 'apache-2.0',
      url: 'https://example.com/my-local-model',
      inputPrice: 1000000,
      outputPrice: 2000000,
    });
    expect(readModelMetadataFile(modelFolder({ display_name: 'Only a name' }))).toEqual({ displayName: 'Only a name' });
    expect(readModelMetadataFile(tempProject())).toBeUndefined();
  });

  it.each([
    [{ display_name: 'x', organisation: 'Acme' }, 'organisation: Unrecognized key: "organisation" (the fields are display_name, organization, license, link, input_price, output_price)'],
    [{ display_name: 'Mine, tuned' }, 'display_name: must not contain a comma or a line break (the leaderboard CSVs are not quoted)'],
    [{ display_name: '  ' }, 'display_name: must not be empty'],
    [{ input_price: 0.5 }, 'output_price: give both input_price and output_price (USD per million tokens), or neither'],
    [{ input_price: -1, output_price: 1 }, 'input_price: '],
    [{ link: 42 }, 'link: '],
    [[1, 2], 'Invalid input'],
  ])('names the file and the field of a bad file: %j', (metadata, message) => {
    const dir = modelFolder(metadata);
    const error = errorOf(() => readModelMetadataFile(dir));
    expect(error.message).toContain(`${join(dir, MODEL_METADATA_FILE)}:`);
    expect(error.message).toContain(message);
  });

  it('says when the file is not JSON', () => {
    const dir = modelFolder('{"display_name": ');
    expect(errorOf(() => readModelMetadataFile(dir)).message).toMatch(new RegExp(`^${join(dir, MODEL_METADATA_FILE)}: not valid JSON \\(`));
  });
});

describe('modelMetadataResolver', () => {
  it('puts the file fields over the registry (or the defaults of an unknown folder)', () => {
    const dir = modelFolder({ display_name: 'Renamed oracle' });
    mkdirSync(join(dir, '..', 'oracle'));
    writeFileSync(join(dir, '..', 'oracle', MODEL_METADATA_FILE), JSON.stringify({ license: 'CC0' }));
    const resolve = modelMetadataResolver(join(dir, '..'));
    expect(resolve('my-local-model')).toEqual({ ...modelMetadata('my-local-model'), displayName: 'Renamed oracle' });
    expect(resolve('oracle')).toEqual({ ...modelMetadata('oracle'), license: 'CC0' });
    expect(resolve('elsewhere')).toEqual(modelMetadata('elsewhere'));
    expect(modelMetadataResolver(join(dir, 'nothing-here'))).toBe(modelMetadata);
  });
});

describe('bfcl evaluate and report with a model metadata file', () => {
  it('writes the file metadata into the leaderboard CSVs where the registry metadata goes, and report names the model alike', async () => {
    const root = tempProject();
    writeResults(root, 'my-local-model', 'simple_python', singleTurnResults('simple_python'));
    writeFileSync(join(root, 'result', 'my-local-model', MODEL_METADATA_FILE), JSON.stringify(FULL));
    const r = await cli(['evaluate', '--test-category', 'simple_python'], root);
    expect(r.code, r.stderr).toBe(0);
    const [header, row] = readFileSync(join(root, 'score', 'data_overall.csv'), 'utf8').split('\n');
    const cells = Object.fromEntries(header!.split(',').map((name, i) => [name, row!.split(',')[i]]));
    // 6 entries × (10 input tokens × $1 + 5 output tokens × $2) per token (prices are per million tokens).
    expect(cells).toMatchObject({
      Model: 'My Local Model (FC)',
      'Model Link': 'https://example.com/my-local-model',
      'Total Cost ($)': '120.0',
      Organization: 'Acme Labs',
      License: 'apache-2.0',
    });
    expect(readFileSync(join(root, 'score', 'data_non_live.csv'), 'utf8')).toContain('\n1,My Local Model (FC),');
    expect(r.stdout).toContain('My Local Model (FC)');

    const report = await cli(['report'], root);
    expect(report.code, report.stderr).toBe(0);
    const html = readFileSync(join(root, 'score', 'report.html'), 'utf8');
    expect(html).toContain('My Local Model (FC)');
  });

  it('stops with exit 2 on a bad file, naming the file and the field, before writing any score', async () => {
    const root = tempProject();
    writeResults(root, 'my-local-model', 'simple_python', singleTurnResults('simple_python'));
    const file = join(root, 'result', 'my-local-model', MODEL_METADATA_FILE);
    writeFileSync(file, JSON.stringify({ display_name: 'Mine', input_price: 'cheap', output_price: 1 }));
    const r = await cli(['evaluate', '--test-category', 'simple_python'], root);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`bfcl: error: ${file}: input_price: `);
    expect(existsSync(join(root, 'score'))).toBe(false);
  });
});
