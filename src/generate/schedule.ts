/**
 * Running entries concurrently (_llm_response_generation.py::generate_results): at most
 * `concurrency` entries at a time, in the given order, an entry starting only once every entry it
 * `depends_on` has finished. After an interruption no further entry starts.
 */

import pLimit from 'p-limit';

/** What the scheduler needs of an entry. */
export interface SchedulableEntry {
  readonly id: string;
  readonly dependsOn?: readonly string[] | undefined;
}

/**
 * The order to start entries in: entries of a dependency chain first, in their given order (a chain
 * runs one link at a time, so it is the longest work); then the others by expected cost, highest
 * first, ties in their given order. Started last, a long multi-turn conversation keeps the run
 * going after every other thread has finished; started first, it overlaps with the short ones.
 */
export function orderLongestFirst<T extends SchedulableEntry>(entries: readonly T[], cost: (entry: T) => number): T[] {
  const dependedOn = new Set(entries.flatMap((entry) => entry.dependsOn ?? []));
  const inChain = (entry: T): boolean => (entry.dependsOn?.length ?? 0) > 0 || dependedOn.has(entry.id);
  const free = entries.filter((entry) => !inChain(entry)).map((entry, index) => ({ entry, index, cost: cost(entry) }));
  free.sort((a, b) => b.cost - a.cost || a.index - b.index);
  return [...entries.filter(inChain), ...free.map(({ entry }) => entry)];
}

/** How a scheduled run ended. */
export interface ScheduleResult {
  /** Entries whose task ran to its end. */
  readonly finished: number;
  /** Entries never started because the run was interrupted. */
  readonly notStarted: number;
}

/**
 * Run `task` for every entry. Tasks must not reject (the caller turns failures into error lines);
 * a rejection is passed on once the running tasks have settled.
 */
export async function runScheduled<T extends SchedulableEntry>(
  entries: readonly T[],
  concurrency: number,
  task: (entry: T) => Promise<void>,
  signal?: AbortSignal,
): Promise<ScheduleResult> {
  const limit = pLimit(Math.max(1, concurrency));
  const settled = new Map<string, Promise<void>>();
  let finished = 0;
  let notStarted = 0;

  const run = (entry: T) => async (): Promise<void> => {
    if (signal?.aborted === true) {
      notStarted++;
      return;
    }
    await task(entry);
    finished++;
  };

  const started: Promise<void>[] = [];
  for (const entry of entries) {
    // Dependencies not in this run (already generated) do not block; a child waits for its
    // dependencies however they ended.
    const deps = (entry.dependsOn ?? []).flatMap((id) => settled.get(id) ?? []);
    const promise = deps.length === 0 ? limit(run(entry)) : Promise.all(deps).then(() => limit(run(entry)));
    started.push(promise);
    settled.set(entry.id, promise.catch(() => undefined));
  }
  const outcomes = await Promise.allSettled(started);
  const failure = outcomes.find((o): o is PromiseRejectedResult => o.status === 'rejected');
  if (failure !== undefined) throw failure.reason;
  return { finished, notStarted };
}
