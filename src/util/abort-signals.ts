/**
 * One abort signal for two sources, with plain listeners that are removed when done:
 * `AbortSignal.any` is missing before Node 20.3, costly per request, and keeps its sources linked.
 */

/** A signal that fires when either source fires, with that source's reason; `dispose` unlinks it from the sources. */
export interface CombinedSignal<S extends AbortSignal | undefined> {
  readonly signal: S;
  readonly dispose: () => void;
}

export function combineSignals(a: AbortSignal | undefined, b: AbortSignal): CombinedSignal<AbortSignal>;
export function combineSignals(a: AbortSignal | undefined, b: AbortSignal | undefined): CombinedSignal<AbortSignal | undefined>;
export function combineSignals(a: AbortSignal | undefined, b: AbortSignal | undefined): CombinedSignal<AbortSignal | undefined> {
  if (a === undefined || b === undefined) return { signal: a ?? b, dispose: () => {} };
  const controller = new AbortController();
  const onA = (): void => controller.abort(a.reason);
  const onB = (): void => controller.abort(b.reason);
  if (a.aborted) onA();
  else if (b.aborted) onB();
  a.addEventListener('abort', onA, { once: true });
  b.addEventListener('abort', onB, { once: true });
  return {
    signal: controller.signal,
    dispose: () => {
      a.removeEventListener('abort', onA);
      b.removeEventListener('abort', onB);
    },
  };
}
