/**
 * zod schemas of the BFCL dataset files, and the entry types the loader hands out.
 *
 * The schemas describe the *plain* JSON view of a line (objects, not Maps); they list the fields the
 * harness reads and let any other field through (`looseObject`). The loader keeps the lossless
 * Python form (`PyValue`) of every entry beside the typed view, because prompts, score files and the
 * simulated APIs need Python's int/float distinction and key order.
 */

import { z } from 'zod';

import type { PyDict, PyValue } from '../py/value.js';
import { MEMORY_SCENARIO_NAME } from './categories.js';

// ---------------------------------------------------------------------------------------------
// Questions and function docs

export const ROLES = ['system', 'user', 'assistant'] as const;

/**
 * The schemas, built on first use: a run whose parsed dataset files come from the parse cache
 * checks nothing, and building them took 4–6 ms of each thread's start-up. The parse cache keys a
 * reading by the schema's name (`DatasetSchemaName`), not by the schema.
 */
function buildDatasetSchemas() {
  /** One chat message of a question turn. */
  const messageSchema = z.looseObject({
    role: z.enum(ROLES),
    content: z.string(),
  });

  /** `question`: a list of turns, each a list of messages (a multi-turn hold-out turn is `[]`). */
  const questionSchema = z.array(z.array(messageSchema));

  /** One parameter of a function doc. Nested `items` / `properties` are free-form (Java, JS and Python types differ). */
  const paramPropertySchema = z.looseObject({
    type: z.string(),
    description: z.string().optional(),
  });

  /** `parameters` of a function doc (type `dict` in the data, not JSON Schema's `object`). */
  const functionParametersSchema = z.looseObject({
    type: z.string(),
    properties: z.record(z.string(), paramPropertySchema),
    required: z.array(z.string()).optional(),
  });

  /** A function doc as found in single-turn entries. Names may contain dots (`math.factorial`). */
  const functionDocSchema = z.looseObject({
    name: z.string().min(1),
    description: z.string(),
    parameters: functionParametersSchema,
  });

  /** A multi-turn / agentic function doc (`multi_turn_func_doc/*.json`), usually with a `response` schema. */
  const multiTurnFunctionDocSchema = functionDocSchema.extend({
    response: z.record(z.string(), z.unknown()).optional(),
  });

  const idSchema = z.string().min(1);

  // ---------------------------------------------------------------------------------------------
  // Question entries (one JSON object per line)

  /** Single-turn entry: `simple_python`, `multiple`, `live_*`, `irrelevance`... */
  const singleTurnEntrySchema = z.looseObject({
    id: idSchema,
    question: questionSchema,
    function: z.array(functionDocSchema),
  });

  /** A single-turn entry whose `function` docs are checked separately (one `functionDocSchema` check per distinct doc). */
  const singleTurnEntryWithoutDocsSchema = singleTurnEntrySchema.extend({
    function: z.array(z.unknown()),
  });

  /** Multi-turn entry (`multi_turn_*`); `function` is filled in from the class docs at load time. */
  const multiTurnEntrySchema = z.looseObject({
    id: idSchema,
    question: questionSchema,
    initial_config: z.record(z.string(), z.record(z.string(), z.unknown())),
    path: z.array(z.string()),
    involved_classes: z.array(z.string().min(1)).min(1),
    /** Turn index (as a string) → names of the function docs held out until that turn (miss_func). */
    missed_function: z.record(z.string().regex(/^\d+$/, 'turn index'), z.array(z.string())).optional(),
    excluded_function: z.array(z.string()).optional(),
  });

  /** Web-search entry (shared by `web_search_base` and `web_search_no_snippet`). */
  const webSearchEntrySchema = z.looseObject({
    id: idSchema,
    question: questionSchema,
    involved_classes: z.array(z.string().min(1)).min(1),
  });

  /** Memory question entry (shared by the three memory backends). */
  const memoryEntrySchema = z.looseObject({
    id: idSchema,
    question: questionSchema,
    involved_classes: z.array(z.string().min(1)).min(1),
    scenario: z.enum(MEMORY_SCENARIO_NAME),
  });

  /** Memory prerequisite conversation (`memory_prereq_conversation/memory_<scenario>.json`). */
  const memoryPrereqEntrySchema = memoryEntrySchema.extend({
    topic: z.string(),
  });

  // ---------------------------------------------------------------------------------------------
  // Possible answers

  /** One expected call: `{func_name: {param: [acceptable values...]}}` (exactly one function name). */
  const astExpectedCallSchema = z
    .record(z.string(), z.record(z.string(), z.array(z.unknown())))
    .refine((call) => Object.keys(call).length === 1, 'an expected call must name exactly one function');

  /** Ground truth of AST categories (`simple_*`, `multiple`, `parallel*`, `live_*`). */
  const astPossibleAnswerSchema = z.looseObject({
    id: idSchema,
    ground_truth: z.array(astExpectedCallSchema),
  });

  /** Ground truth of multi-turn categories: per turn, a list of Python call strings. */
  const multiTurnPossibleAnswerSchema = z.looseObject({
    id: idSchema,
    ground_truth: z.array(z.array(z.string())),
  });

  /** Ground truth of web search: acceptable answer strings. */
  const webSearchPossibleAnswerSchema = z.looseObject({
    id: idSchema,
    ground_truth: z.array(z.string()),
    /** The hops behind the answer (`{subquestion, answer, source}` dicts); not used for scoring. */
    source: z.array(z.unknown()).optional(),
    num_hops: z.number().int().optional(),
  });

  /** Ground truth of memory: acceptable answer strings. */
  const memoryPossibleAnswerSchema = z.looseObject({
    id: idSchema,
    ground_truth: z.array(z.string()),
    source: z.string().nullable().optional(),
  });

  // ---------------------------------------------------------------------------------------------
  // Whole-file JSON documents

  /** A category → entry ids file (`test_case_ids_to_generate.json`, the format-sensitivity id file). */
  const categoryIdListSchema = z.record(z.string(), z.array(z.string()));

  /** `BFCL_v4_format_sensitivity.json`: category → ids of the entries that are re-asked in 26 formats. */
  const formatSensitivityIdsSchema = categoryIdListSchema;

  /** `long_context.json`: the filler lists of the reference's long_context.py, by constant name. */
  const longContextSchema = z.record(z.string(), z.unknown());

  return {
    messageSchema,
    questionSchema,
    paramPropertySchema,
    functionParametersSchema,
    functionDocSchema,
    multiTurnFunctionDocSchema,
    singleTurnEntrySchema,
    singleTurnEntryWithoutDocsSchema,
    multiTurnEntrySchema,
    webSearchEntrySchema,
    memoryEntrySchema,
    memoryPrereqEntrySchema,
    astExpectedCallSchema,
    astPossibleAnswerSchema,
    multiTurnPossibleAnswerSchema,
    webSearchPossibleAnswerSchema,
    memoryPossibleAnswerSchema,
    categoryIdListSchema,
    formatSensitivityIdsSchema,
    longContextSchema,
  };
}

export type DatasetSchemas = ReturnType<typeof buildDatasetSchemas>;
export type DatasetSchemaName = keyof DatasetSchemas;

let built: DatasetSchemas | undefined;

/** The dataset files' schemas (built once, when first asked for). */
export function datasetSchemas(): DatasetSchemas {
  built ??= buildDatasetSchemas();
  return built;
}

// ---------------------------------------------------------------------------------------------
// What the loader returns

export type Role = (typeof ROLES)[number];

/** A chat message of a question (typed view). */
export interface Message {
  readonly role: Role;
  readonly content: string;
}

/**
 * A test entry after the reference's loading steps (id rewriting, agentic system prompt, multi-turn
 * function docs, hold-outs, optional language hint).
 *
 * `raw` is the entry as the reference holds it at that point, as a Python dict with the same key
 * order (score files print it as the `prompt`). The typed fields are views of `raw` and share its
 * values. Nested values may be shared with the loader's cache and with other entries: treat them as
 * read-only and copy before changing anything.
 */
export interface TestEntry {
  readonly id: string;
  /** `extractTestCategoryFromId(id)`: e.g. `live_simple`, `memory_kv_prereq`, `format_sensitivity`. */
  readonly category: string;
  readonly question: readonly (readonly Message[])[];
  /** The `function` list, in Python form (a `PyDict` per doc); `[]` when the entry has none. */
  readonly functionDocs: readonly PyValue[];
  /** Multi-turn `initial_config` (class name → state), in Python form. */
  readonly initialConfig: PyDict | undefined;
  readonly involvedClasses: readonly string[] | undefined;
  /** miss_func hold-outs: turn index (as in the data, e.g. `"3"`) → the held-out function docs. */
  readonly missedFunction: ReadonlyMap<string, readonly PyValue[]> | undefined;
  /** Memory entries: ids of the prerequisite entries that must run first. */
  readonly dependsOn: readonly string[] | undefined;
  /** Memory entries: the scenario name. */
  readonly scenario: string | undefined;
  readonly raw: PyDict;
}

/** A ground-truth entry (`possible_answer/*.json`). */
export interface PossibleAnswer {
  readonly id: string;
  /** `ground_truth` in Python form (its shape depends on the category, see the schemas above). */
  readonly groundTruth: PyValue;
  readonly raw: PyDict;
}
