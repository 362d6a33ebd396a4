/** `bfcl generate`'s flags: commander wiring only; the work is `runners.runGenerate`. */

import { type Command, Option } from 'commander';

import { dataDirOption, listOption } from './command-options.js';
import type { CliIo } from './io.js';
import {
  type GenerateFlags,
  parseNonNegativeInt,
  parsePositiveInt,
  parsePositiveSeconds,
  parseTemperature,
  parseUnitInterval,
  toGenerateOptions,
} from './option-parsers.js';
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
    .addOption(
      new Option('--mode <mode>', 'fc or prompting, for openai-compatible/<id> models (default fc; registry models have a fixed mode).').choices(['fc', 'prompting']),
    )
    .option('--max-tokens <n>', 'Send this max-tokens limit with every request (default: not sent).', parsePositiveInt)
    .option('--top-p <p>', 'Send this top_p with every request (default: not sent).', parseUnitInterval)
    .option('--seed <n>', 'Send this seed with every request (default: not sent).', parseNonNegativeInt)
    .option('--extra-body <json>', 'A JSON object merged into every request body, e.g. \'{"chat_template_kwargs": {"enable_thinking": false}}\'.')
    .option('--timeout <seconds>', "Time limit of one request (default: the provider's, e.g. 600 s for OpenAI-compatible servers).", parsePositiveSeconds)
    .option('--max-retries <n>', 'Retries of a failed request (default 7; rate-limited requests get 4x as many).', parseNonNegativeInt)
    .option('--max-backoff <seconds>', 'Longest wait between attempts, Retry-After included (default 120 s; Retry-After up to 600 s).', parsePositiveSeconds)
    .option('--max-consecutive-failures <n>', 'Stop the run after this many failed requests in a row (5xx, timeouts, lost connections) once none succeeded for a minute (default 10).', parsePositiveInt)
    .option('--retry-errors', 'Also generate entries that failed for good before (e.g. HTTP 400: prompt too long).')
    .option('--json', 'Print the end summary as JSON on stdout (progress stays on stderr).')
    .option('--search-cache <dir>', 'Web search: directory of the record/replay cache of searches and pages (env BFCL_SEARCH_CACHE).')
    .addOption(
      new Option('--search-cache-mode <mode>', 'Web search cache: off, record, replay (no network; a miss fails the entry) or auto (default: off; auto when only --search-cache is given; env BFCL_SEARCH_CACHE_MODE).').choices([
        'off',
        'record',
        'replay',
        'auto',
      ]),
    )
    .option('--embeddings-base-url <url>', 'memory_vector: an OpenAI-compatible /v1/embeddings server serving all-MiniLM-L6-v2 (env BFCL_EMBEDDINGS_BASE_URL; default: in process with @huggingface/transformers).')
    .action(async (flags: GenerateFlags) => {
      outcome.exitCode = await runners.runGenerate(toGenerateOptions(flags, io), io);
    });
}
