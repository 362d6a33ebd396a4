import type { PyValue } from '../../py/value.js';

/**
 * A simulated instance with asynchronous work to do before a call (the vector memory embeds the
 * texts a retrieval needs): the executor awaits `_prepareCall` with the call's bound arguments,
 * then runs the call synchronously.
 */
export interface CallPreparer {
  _prepareCall(method: string, args: readonly PyValue[]): Promise<void>;
}

/** Whether `instance` wants its calls prepared. */
export function preparesCalls(instance: object): instance is CallPreparer {
  return typeof (instance as Partial<CallPreparer>)._prepareCall === 'function';
}
