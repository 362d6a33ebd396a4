/**
 * A fresh abort signal per request, following the run's and the entry's signals through listeners
 * that are removed when the request is done. Libraries that listen on the signal they are given
 * (the SDKs add a listener per request and never remove it) then never pile listeners on a
 * long-lived signal: that grew every later `addEventListener` call (Node checks a signal's whole
 * listener list for duplicates) and printed `MaxListenersExceededWarning` above 10 threads.
 */

/** A signal that fires when any source fires, with that source's reason; `dispose` unlinks it from the sources. */
export interface LinkedSignal {
  readonly signal: AbortSignal | undefined;
  readonly dispose: () => void;
}

/** A new signal linked to the defined `sources`; undefined when there are none. */
export function linkSignals(...sources: readonly (AbortSignal | undefined)[]): LinkedSignal {
  const defined = sources.filter((source): source is AbortSignal => source !== undefined);
  if (defined.length === 0) return { signal: undefined, dispose: () => {} };
  const controller = new AbortController();
  const fired = defined.find((source) => source.aborted);
  if (fired !== undefined) {
    controller.abort(fired.reason);
    return { signal: controller.signal, dispose: () => {} };
  }
  const listeners = defined.map((source) => {
    const onAbort = (): void => controller.abort(source.reason);
    source.addEventListener('abort', onAbort, { once: true });
    return () => source.removeEventListener('abort', onAbort);
  });
  return { signal: controller.signal, dispose: () => listeners.forEach((remove) => remove()) };
}
