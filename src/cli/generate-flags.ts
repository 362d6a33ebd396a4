/** `bfcl generate`'s flags: commander wiring only; the work is `runners.runGenerate`. */

import type { Command } from 'commander';

import { dataDirOption, listOption } from './command-options.js';
import type { CliIo } from './io.js';
import { type GenerateFlags, parsePositiveInt, parseTemperature, toGenerateOptions } from './option-parsers.js';
import type { CliOutcome } from './program.js';
import type { CliRunners } from './runners.js';

/** The reference's CLI default temperature. */
const DEFAULT_TEMPERATURE = 0.001;

/** Add `generate` to the program. */
export function registerGenerateCommand(program: Command, io: CliIo, runners: CliRunners, outcome: CliOutcome): void {
  program
    .command('generate')
    .description('Generate model responses for one or more models on the selected test categories.')
    .addOption(listOption('--model <names>', 'Model names, comma-separated; repeatable.').makeOptionMandatory())
    .addOption(listOption('--test-category <names>', 'Test categories or groups, comma-separated; repeatable (default: all).'))
    .option('--temperature <float>', 'Sampling temperature.', parseTemperature, DEFAULT_TEMPERATURE)
    .option('--include-input-log', 'Record the fully transformed model input in the inference log.')
    .option('--exclude-state-log', 'Leave the state of the simulated APIs after each turn out of multi-turn logs.')
    .option('--num-threads <n>', 'Number of concurrent requests (default: 1 for API models).', parsePositiveInt)
    .option('--result-dir <dir>', 'Result directory, relative to the project root (default: result).')
    .option('-o, --allow-overwrite', 'Regenerate entries that already have results.')
    .option('--run-ids', 'Generate only the ids listed in test_case_ids_to_generate.json (ignores --test-category).')
    .option('--base-url <url>', 'Endpoint of an OpenAI-compatible server such as vLLM, sglang or ollama (else OPENAI_BASE_URL / LOCAL_SERVER_ENDPOINT:LOCAL_SERVER_PORT).')
    .addOption(dataDirOption())
    .action(async (flags: GenerateFlags) => {
      outcome.exitCode = await runners.runGenerate(toGenerateOptions(flags, io), io);
    });
}
