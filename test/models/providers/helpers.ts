/** Shared pieces of the provider adapter tests: sample function docs, model construction, a step driver. */
import { createModel, type CreateModelOptions } from '../../../src/models/create-model.js';
import { buildModelConfig, findModel, type ModelConfig } from '../../../src/models/model-registry.js';
import { parseJsonLossless } from '../../../src/py/json.js';
import type { PyValue } from '../../../src/py/value.js';
import type { Conversation, Model, ModelStep } from '../../../src/spec/model.js';
import type { Message } from '../../../src/spec/schemas.js';
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { MockLlmServer } from '../../helpers/mock-llm-server.js';

/** Two function docs: a dotted name with an int parameter, and a float parameter with a default. */
export const SAMPLE_DOCS: PyValue[] = parseJsonLossless(`[
  {"name": "math.factorial", "description": "Compute a factorial.",
   "parameters": {"type": "dict", "properties": {"number": {"type": "integer", "description": "The number."}}, "required": ["number"]}},
  {"name": "scale", "description": "Scale a value.",
   "parameters": {"type": "dict", "properties": {
     "value": {"type": "float", "description": "The value."},
     "factor": {"type": "float", "description": "The factor.", "default": 1.0},
     "tags": {"type": "array", "items": {"type": "string"}, "description": "Labels."}},
    "required": ["value"]}}
]`) as PyValue[];

/** The tools the OpenAI styles make of SAMPLE_DOCS (`function` wrapper aside). */
export const SAMPLE_FUNCTIONS_OPENAI = [
  {
    name: 'math_factorial',
    description: 'Compute a factorial.',
    parameters: { type: 'object', properties: { number: { type: 'integer', description: 'The number.' } }, required: ['number'] },
  },
  {
    name: 'scale',
    description: 'Scale a value.',
    parameters: {
      type: 'object',
      properties: {
        value: { type: 'number', description: 'The value. This is a float type value.', format: 'float' },
        factor: { type: 'number', description: 'The factor. This is a float type value.', default: 1.0, format: 'float' },
        tags: { type: 'array', items: { type: 'string' }, description: 'Labels.' },
      },
      required: ['value'],
    },
  },
];

export const USER_QUESTION: Message[] = [{ role: 'user', content: 'What is 5 factorial?' }];

/** Keys and a fast retry policy; tests add the endpoint. */
export const TEST_ENV = { OPENAI_API_KEY: 'sk-test', ANTHROPIC_API_KEY: 'ant-test' } as const;
export const FAST_RETRY = { maxAttempts: 3, baseDelayMs: 5, maxDelayMs: 20 } as const;

export function registered(name: string): ModelConfig {
  const config = findModel(name);
  if (config === undefined) throw new Error(`no registry entry ${name}`);
  return config;
}

/** An OpenAI-compatible model that is not in the registry, FC or prompting. */
export function compatibleModel(modelName: string, isFcModel: boolean): ModelConfig {
  return buildModelConfig({
    registryName: `openai-compatible/${modelName}${isFcModel ? '' : '-prompting'}`,
    modelName,
    displayName: modelName,
    url: '',
    org: '',
    license: '',
    handler: 'OpenAICompletionsHandler',
    inputPrice: null,
    outputPrice: null,
    isFcModel,
    underscoreToDot: isFcModel,
  });
}

export function makeModel(config: ModelConfig, options: CreateModelOptions): Model {
  return createModel(config, { retry: FAST_RETRY, ...options, env: { ...TEST_ENV, ...options.env } });
}

/** Starts a conversation on `question` and adds its first turn. */
export function begin(
  model: Model,
  question: Message[][] = [USER_QUESTION],
  entryId = 'simple_python_0',
  functions: PyValue[] = SAMPLE_DOCS,
): { conversation: Conversation; question: Message[][] } {
  const started = model.startConversation({ entryId, functions, question, multiTurn: entryId.includes('multi_turn') });
  started.conversation.addFirstTurnMessages(started.question[0]!);
  return started;
}

/** One step as the multi-turn loop does it: query, history, decode, and fake execution results. */
export async function step(
  model: Model,
  conversation: Conversation,
  results: (calls: string[]) => string[] = (calls) => calls.map(() => 'ok'),
): Promise<{ step: ModelStep; calls: string[] | undefined }> {
  const answer = await conversation.query();
  conversation.addAssistantMessage(answer);
  const decoded = model.decodeExecute(answer.responses);
  if (!decoded.ok || decoded.value.length === 0) return { step: answer, calls: undefined };
  conversation.addExecutionResults(results(decoded.value), decoded.value, answer);
  return { step: answer, calls: decoded.value };
}

/** The top-level keys of a parsed JSON object, in order (to assert key order). */
export function keyOrder(value: unknown): string[] {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return [];
  return Object.keys(value);
}

/**
 * One server for the tests of the enclosing file or `describe` block: started before them (and handed
 * to `use`), closed after them, its recorded requests cleared before each test.
 */
export function useMockLlmServer(use: (server: MockLlmServer) => void): void {
  let server: MockLlmServer | undefined;
  beforeAll(async () => {
    server = await MockLlmServer.start();
    use(server);
  });
  afterAll(async () => {
    await server?.close();
  });
  beforeEach(() => {
    if (server !== undefined) server.requests.length = 0;
  });
}
