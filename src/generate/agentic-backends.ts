/**
 * The backends of a run's agentic entries, built once before any entry runs and only for what the
 * selected entries need: web search (SerpAPI and page fetcher, with the record/replay cache) for
 * `web_search_*`, snapshot files for `memory_*`, and sentence embeddings for `memory_vector`.
 * Everything that cannot work fails here, with a clear message, instead of in the first entry.
 *
 * Options are plain values (the CLI reads flags and the environment); nothing here reads `process.env`.
 */

import { createEmbedder, type EmbedderOptions } from '../agentic/memory/create-embedder.js';
import { EmbeddingsUnavailableError, type Embedder } from '../agentic/memory/embedder.js';
import type { MemorySnapshotStore } from '../agentic/memory/memory-snapshot-store.js';
import { NodeMemorySnapshotStore } from '../agentic/memory/node-memory-snapshot-store.js';
import { createWebBackends, type WebBackendOptions } from '../agentic/web/create-web-backends.js';
import { WebSearchServiceError } from '../agentic/web/web-errors.js';
import { createWebSearchApiFactory, type WebBackends } from '../agentic/web/web-search-api.js';
import type { AgenticBackends } from '../exec/agentic-instances.js';
import { isMemory, isWebSearch } from '../spec/categories.js';
import { UsageError } from '../util/errors.js';

/** How the agentic backends are configured (flags and environment, merged by the CLI). */
export interface AgenticOptions {
  /** Web search: SerpAPI key and endpoint, cache mode and directory, timeouts... */
  readonly web?: WebBackendOptions;
  /** Where `memory_vector`'s embeddings come from (an OpenAI-compatible server, or all-MiniLM-L6-v2 in process). */
  readonly embeddings?: EmbedderOptions;
  /** An embedder to use instead of building one from `embeddings` (tests, programmatic use). */
  readonly embedder?: Embedder;
  /** Where memory snapshots are read and written (default: the file system). */
  readonly snapshots?: MemorySnapshotStore;
  /**
   * The models of the run never search nor retrieve (the oracle answers from the ground truth): web
   * search and memory_vector get backends that refuse every request, and need no key nor embeddings.
   */
  readonly noBackendCalls?: boolean;
}

/** The built backends of a run; each part is present only when a selected entry needs it. */
export interface AgenticRunBackends {
  readonly web?: WebBackends;
  readonly embedder?: Embedder;
  readonly snapshots?: MemorySnapshotStore;
}

/** What the selected entries need. */
export interface AgenticNeeds {
  readonly webSearch: boolean;
  readonly memory: boolean;
  readonly memoryVector: boolean;
}

/** The agentic backends the entries with these ids need. */
export function agenticNeedsOf(ids: readonly string[]): AgenticNeeds {
  return {
    webSearch: ids.some(isWebSearch),
    memory: ids.some(isMemory),
    memoryVector: ids.some((id) => id.startsWith('memory_vector')),
  };
}

/**
 * Build the backends the entries with these ids need. Throws a `UsageError` when web search has no
 * SerpAPI key (outside replay) or a cache mode without a directory, and `EmbeddingsUnavailableError`
 * when memory_vector cannot get embeddings: the embedder answers one probe text before any entry
 * runs (this also loads the in-process model once, or reaches the embeddings server).
 */
export async function createAgenticRunBackends(ids: readonly string[], options: AgenticOptions = {}): Promise<AgenticRunBackends> {
  const needs = agenticNeedsOf(ids);
  let web: WebBackends | undefined;
  if (needs.webSearch && options.noBackendCalls === true) {
    web = NO_WEB_ACCESS;
  } else if (needs.webSearch) {
    try {
      web = createWebBackends(options.web ?? {});
    } catch (error) {
      if (error instanceof UsageError) throw new UsageError(`Web search: ${error.message}.`, { cause: error });
      throw error;
    }
  }
  let embedder: Embedder | undefined;
  if (needs.memoryVector && options.noBackendCalls === true) {
    embedder = NO_EMBEDDINGS;
  } else if (needs.memoryVector) {
    embedder = options.embedder ?? createEmbedder(options.embeddings ?? {});
    await probeEmbedder(embedder);
  }
  const snapshots = needs.memory ? (options.snapshots ?? new NodeMemorySnapshotStore()) : undefined;
  return { ...(web !== undefined && { web }), ...(embedder !== undefined && { embedder }), ...(snapshots !== undefined && { snapshots }) };
}

/** Web backends for runs whose models never search: a search or fetch is a harness bug, and stops the run. */
const NO_WEB_ACCESS: WebBackends = {
  search: {
    name: 'none',
    search: () => Promise.reject(new WebSearchServiceError('missing_api_key', 'This run has no web access (its models were not expected to search).')),
  },
  fetcher: {
    name: 'none',
    fetch: () => Promise.reject(new WebSearchServiceError('missing_api_key', 'This run has no web access (its models were not expected to fetch pages).')),
  },
};

/** The embedder of runs whose models never search their vector memory. */
const NO_EMBEDDINGS: Embedder = {
  embed: () => Promise.reject(new EmbeddingsUnavailableError('This run has no embeddings (its models were not expected to search their memory).')),
};

/** One embedding, so a missing package, model or server stops the run before its first entry. */
async function probeEmbedder(embedder: Embedder): Promise<void> {
  try {
    const [vector] = await embedder.embed(['memory_vector embedding check']);
    if (vector === undefined || vector.length === 0) throw new Error('the embedder returned no vector');
  } catch (error) {
    if (error instanceof EmbeddingsUnavailableError) throw error;
    throw new EmbeddingsUnavailableError(`The embedder failed on a test text: ${error instanceof Error ? error.message : String(error)}.`, { cause: error });
  }
}

/**
 * The executor's view of the run's backends: memory classes get the snapshot store, `warn` (for the
 * missing-snapshot warning) and the embedder; `WebSearchAPI` instances share the web backends,
 * whose pending requests and 429 waits stop when `signal` fires.
 */
export function executorBackendsOf(
  backends: AgenticRunBackends | undefined,
  warn: (message: string) => void,
  signal: AbortSignal | undefined,
): AgenticBackends | undefined {
  if (backends === undefined) return undefined;
  const { web, embedder, snapshots } = backends;
  return {
    ...(snapshots !== undefined && { memory: { snapshots, warn, ...(embedder !== undefined && { embedder }) } }),
    ...(web !== undefined && { webSearch: createWebSearchApiFactory({ ...web, ...(signal !== undefined && { signal }) }) }),
  };
}
