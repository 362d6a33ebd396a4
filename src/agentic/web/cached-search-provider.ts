/** A `SearchProvider` that answers from the record/replay cache, falling back to a live provider as the mode allows. */
import { z } from 'zod';
import type { CacheRequest, JsonValue, OutcomeCodec, SearchCache } from './search-cache.js';
import type { SearchOutcome, SearchProvider, SearchRequest } from './search-provider.js';

const outcomeSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('response'), status: z.number().int(), body: z.string() }),
  z.object({ kind: z.literal('network_error'), message: z.string() }),
]);

const SEARCH_CODEC: OutcomeCodec<SearchOutcome> = {
  schema: outcomeSchema,
  encode: (outcome) => ({ ...outcome }),
  decode: (stored) => outcomeSchema.parse(stored),
};

/** The cache request of a search: provider, engine and the parameters as sent (no key, no output options). */
export function searchCacheRequest(provider: string, request: SearchRequest): CacheRequest {
  const params: JsonValue[] = request.params.map(([name, value]) => [name, value]);
  return { kind: 'serp', provider, engine: request.engine, params };
}

/** Searches through a `SearchCache`; rate-limit retries happen in the live provider, so they are never recorded. */
export class CachedSearchProvider implements SearchProvider {
  readonly name: string;

  /** `live` may be undefined in replay mode; `name` is the provider id in the keys (default: the live provider's). */
  constructor(
    private readonly cache: SearchCache,
    private readonly live: SearchProvider | undefined,
    name?: string,
  ) {
    const id = name ?? live?.name;
    if (id === undefined) throw new TypeError('CachedSearchProvider needs a provider name when there is no live provider');
    this.name = id;
  }

  search(request: SearchRequest, signal?: AbortSignal): Promise<SearchOutcome> {
    const live = this.live;
    return this.cache.through(
      searchCacheRequest(this.name, request),
      SEARCH_CODEC,
      live === undefined ? undefined : () => live.search(request, signal),
    );
  }
}
