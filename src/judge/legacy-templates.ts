/**
 * Phoenix's tool-calling templates (spec §2.1, §2.2) are Elastic License 2.0 text, so they are not
 * in this source: they live in judge-templates/phoenix-tool-calling-templates.elv2.txt with the
 * licence and Arize's notices, and are read from there when a judge run starts. Each template sits
 * between marker lines that give its size and SHA-256, which are checked.
 */

import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { packageRoot } from '../data/data-dir.js';
import { sha256Hex } from '../util/hash.js';
import { InternalError } from '../util/errors.js';

/** The file, relative to the package root. */
export const LEGACY_TEMPLATE_FILE = join('judge-templates', 'phoenix-tool-calling-templates.elv2.txt');

/** The two templates, as Python's `TOOL_CALLING_PROMPT_TEMPLATE` holds them. */
export interface LegacyToolCallingTemplates {
  /** `TOOL_CALLING_BASE_TEMPLATE`. */
  readonly base: string;
  /** `TOOL_CALLING_TEMPLATE_WITH_EXPLANATION`. */
  readonly withExplanation: string;
  /** Where they were read from. */
  readonly file: string;
}

/** The release whose texts the file holds (they did not change from 0.14.0 to 2.13.0). */
export const LEGACY_TEMPLATE_VERSION = '2.13.0';

// The hashes of spec §2.1 / §2.2; a file that does not match is refused.
const EXPECTED: Readonly<Record<'tool_calling' | 'tool_calling_with_explanation', string>> = {
  tool_calling: '1f4d629d925dac83cfd48f5703bfdef9b5f61c2a69281a9c883c35ea071a5df3',
  tool_calling_with_explanation: 'b9b683bf6144fe19f086408781f4f1300c15c05f4ae8823cd4eee0855c1a00ad',
};

let cached: LegacyToolCallingTemplates | undefined;

/** Read (once) and check the ELv2 template file of the package, or of `file` when given. */
export function loadLegacyTemplates(file: string = join(packageRoot(), LEGACY_TEMPLATE_FILE)): LegacyToolCallingTemplates {
  if (cached !== undefined && cached.file === file) return cached;
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new InternalError(`Cannot read Phoenix's tool-calling templates from ${file}: ${(error as Error).message}`);
  }
  cached = {
    base: extractTemplate(text, 'tool_calling', file),
    withExplanation: extractTemplate(text, 'tool_calling_with_explanation', file),
    file,
  };
  return cached;
}

/** The text between `-----BEGIN TEMPLATE <name> …-----\n` and `\n-----END TEMPLATE <name>-----`, checked. */
export function extractTemplate(fileText: string, name: keyof typeof EXPECTED, file: string): string {
  const begin = new RegExp(`^-----BEGIN TEMPLATE ${name} (\\d+) bytes sha256 ([0-9a-f]{64})-----\\n`, 'm').exec(fileText);
  const endMarker = `\n-----END TEMPLATE ${name}-----`;
  const start = begin === null ? -1 : begin.index + begin[0].length;
  const end = start === -1 ? -1 : fileText.indexOf(endMarker, start);
  if (begin === null || end === -1) throw new InternalError(`${file}: no ${name} template between BEGIN and END markers`);
  const template = fileText.slice(start, end);
  const bytes = Buffer.byteLength(template, 'utf8');
  const hash = sha256Hex(template);
  if (String(bytes) !== begin[1] || hash !== begin[2] || hash !== EXPECTED[name]) {
    throw new InternalError(`${file}: the ${name} template is not Phoenix's (${bytes} bytes, sha256 ${hash}; expected sha256 ${EXPECTED[name]})`);
  }
  return template;
}
