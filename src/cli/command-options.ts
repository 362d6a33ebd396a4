import { Option } from 'commander';

import { collectList } from './option-parsers.js';

/** An option that takes comma-separated lists and may be repeated. */
export function listOption(flags: string, description: string): Option {
  return new Option(flags, description).argParser(collectList);
}

/** `--data-dir`, which every command that reads the dataset takes. */
export function dataDirOption(): Option {
  return new Option('--data-dir <dir>', 'BFCL dataset directory in the official layout (env: BFCL_DATA_DIR; default: the package data/).');
}

