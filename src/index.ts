/**
 * The programmatic API of bfcl-ts (no side effects on import): load a dataset, generate with a
 * model, evaluate result folders, and the pieces researchers script against.
 */
export { BfclDataset, openDataset } from './data/dataset.js';
export { generateForModel, type GenerationOptions, type ModelGenerationSummary } from './generate/run-generation.js';
export {
  planEvaluation,
  runEvaluation,
  type EvaluateRunOptions,
  type EvaluateRunSummary,
  type EvaluatedCategory,
  type ModelEvaluationSettings,
} from './evaluate/run-evaluate.js';
export { createModel } from './models/create-model.js';
export { createOracleModel } from './models/oracle.js';
export { MODEL_REGISTRY, findModel, resolveModel } from './models/model-registry.js';
export { EntryExecutor } from './exec/executor.js';
export { parsePythonExpression } from './exec/python-parser.js';
export { parseJsonLossless, jsonDumps } from './py/json.js';
export { pyRepr } from './py/repr.js';
export { ALL_CATEGORIES, parseTestCategoryArgument, type Category } from './spec/categories.js';
export type { Model, Conversation, ModelStep } from './spec/model.js';
export type { TestEntry, PossibleAnswer } from './spec/schemas.js';
