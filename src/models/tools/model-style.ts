/**
 * How a handler wants its function docs compiled into tools (the reference's `constants/enums.py::ModelStyle`).
 * The values are the reference's enum values.
 */
export const ModelStyle = {
  GORILLA: 'gorilla',
  OPENAI_COMPLETIONS: 'openai-completions',
  OPENAI_RESPONSES: 'openai-responses',
  ANTHROPIC: 'claude',
  MISTRAL: 'mistral',
  GOOGLE: 'google',
  AMAZON: 'amazon',
  FIREWORK_AI: 'firework_ai',
  NEXUS: 'nexus',
  OSSMODEL: 'ossmodel',
  COHERE: 'cohere',
  WRITER: 'writer',
  NOVITA_AI: 'novita_ai',
} as const;

export type ModelStyle = (typeof ModelStyle)[keyof typeof ModelStyle];
