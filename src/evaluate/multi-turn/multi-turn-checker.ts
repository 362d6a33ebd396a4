import { EntryExecutor } from '../../exec/executor.js';
import { pyDict, pyEquals, type PyDict, type PyValue } from '../../py/value.js';
import { isPublicAttribute, publicAttribute, type SimContext, type SimulatedApi } from '../../sim/simulated-api.js';

/** What the multi-turn checker needs to know about one entry. */
export interface MultiTurnCheckInput {
  readonly entryId: string;
  readonly initialConfig: PyDict;
  readonly involvedClasses: readonly string[];
  /** The result directory's model name (instance names embed it, see the executor). */
  readonly modelName: string;
  /** Decoded model calls: per turn, per step (non-empty steps only), call strings. */
  readonly decodedTurns: readonly (readonly (readonly string[])[])[];
  /** Ground-truth call strings per turn. */
  readonly groundTruthTurns: readonly (readonly string[])[];
  readonly context: SimContext;
}

/** A failed check, in the reference's dict shape (`error_message`, `error_type`, `details`, ...). */
export interface MultiTurnFailure {
  readonly valid: false;
  /** The checker dict minus `valid`, key order as the reference writes it. */
  readonly error: PyDict;
  readonly errorType: string;
  /**
   * 0-based index of the turn whose check failed (turns before it passed, later ones were not
   * checked). Not part of the score file: `instance_state_mismatch` records do not name the turn.
   */
  readonly turn: number;
}

export type MultiTurnCheckResult = { readonly valid: true } | MultiTurnFailure;

function publicAttributes(instance: SimulatedApi): PyDict {
  return new Map(instance._publicState());
}

/**
 * Whether every public attribute of `gtInstance` equals the model instance's (a missing one is
 * None), read in place: most turns match, and building both attribute dicts for each instance on
 * each turn cost more than comparing them.
 */
function sameState(modelInstance: SimulatedApi, gtInstance: SimulatedApi): boolean {
  for (const attr in gtInstance) {
    if (!isPublicAttribute(gtInstance, attr)) continue;
    if (!pyEquals(publicAttribute(modelInstance, attr) ?? null, publicAttribute(gtInstance, attr)!)) return false;
  }
  return true;
}

/** `state_checker`: every public attribute of each ground-truth instance equals the model's (Python `==`). */
function checkState(
  model: ReadonlyMap<string, SimulatedApi>,
  groundTruth: ReadonlyMap<string, SimulatedApi>,
): PyDict | undefined {
  for (const [className, gtInstance] of groundTruth) {
    const modelInstance = model.get(className)!;
    if (sameState(modelInstance, gtInstance)) continue;
    const modelState = publicAttributes(modelInstance);
    const differences: PyDict = new Map();
    for (const [attr, gtValue] of gtInstance._publicState()) {
      const modelValue = modelState.get(attr) ?? null;
      if (!pyEquals(modelValue, gtValue)) differences.set(attr, pyDict({ model: modelValue, ground_truth: gtValue }));
    }
    if (differences.size > 0) {
      return pyDict({
        error_message: `Model instance for ${className} does not match the state with ground truth instance.`,
        error_type: 'multi_turn:instance_state_mismatch',
        details: pyDict({
          differences,
          model_instance_state: modelState,
          ground_truth_instance_state: publicAttributes(gtInstance),
        }),
      });
    }
  }
  return undefined;
}

/** `_is_subsequence_unordered`: ground-truth results missing from the model's (as a multiset). */
function missingResults(groundTruth: readonly string[], model: readonly string[]): string[] {
  const remaining = new Map<string, number>();
  for (const r of model) remaining.set(r, (remaining.get(r) ?? 0) + 1);
  const missing: string[] = [];
  for (const r of groundTruth) {
    const count = remaining.get(r) ?? 0;
    if (count > 0) remaining.set(r, count - 1);
    else missing.push(r);
  }
  return missing;
}

/**
 * The reference's `multi_turn_checker`: per turn, run the model's steps then the ground truth on
 * separate instances, then (for non-empty ground-truth turns) compare state and require every
 * ground-truth result among all model results so far.
 */
export function checkMultiTurn(input: MultiTurnCheckInput): MultiTurnCheckResult {
  const longContext = input.entryId.includes('long_context') || input.entryId.includes('composite');
  const common = {
    entryId: input.entryId,
    initialConfig: input.initialConfig,
    involvedClasses: input.involvedClasses,
    longContext,
    context: input.context,
  };
  const model = new EntryExecutor({ ...common, modelName: `${input.modelName}_eval` });
  const groundTruth = new EntryExecutor({ ...common, modelName: `${input.modelName}_ground_truth_eval` });
  const executionResults: PyValue[] = [];
  const allModelResults: string[] = [];

  for (let turn = 0; turn < input.groundTruthTurns.length; turn++) {
    const gtCalls = input.groundTruthTurns[turn]!;
    const steps = input.decodedTurns[turn] ?? [];
    const perStep = steps.map((calls) => model.execute(calls));
    const gtResults = groundTruth.execute(gtCalls);
    for (const results of perStep) allModelResults.push(...results);
    executionResults.push(pyDict({ model: perStep, ground_truth: gtResults }));

    if (gtCalls.length > 0 && (steps.length === 0 || (steps.length === 1 && steps[0]!.length === 0))) {
      const error = pyDict({
        error_message: `Model response list is empty for turn ${turn}`,
        error_type: 'multi_turn:empty_turn_model_response',
        details: pyDict({ execution_result: executionResults }),
      });
      return { valid: false, error, errorType: 'multi_turn:empty_turn_model_response', turn };
    }
    if (gtCalls.length === 0) continue;

    const stateError = checkState(model.getInstances(), groundTruth.getInstances());
    if (stateError !== undefined) {
      stateError.set('execution_result', executionResults);
      return { valid: false, error: stateError, errorType: 'multi_turn:instance_state_mismatch', turn };
    }

    const missing = missingResults(gtResults, allModelResults);
    if (missing.length > 0) {
      const error = pyDict({
        error_message: `Model response execution results so far does not contain all the ground truth response execution results for turn ${turn}.`,
        error_type: 'multi_turn:execution_response_mismatch',
        details: pyDict({
          missing_items: missing,
          'model_response (including all previous turns)': [...allModelResults],
          'ground_truth_response (only the current turn)': gtResults,
        }),
      });
      return { valid: false, error, errorType: 'multi_turn:execution_response_mismatch', turn };
    }
  }
  return { valid: true };
}
