/**
 * A `PageFetcher` that answers from the record/replay cache. The key is the URL alone: the HTTP
 * exchange is stored (bytes gzip-compressed), and the raw/markdown/truncate conversion runs at
 * replay, so one recording serves every mode.
 */
import { gunzipSync, gzipSync } from 'node:zlib';
import { z } from 'zod';
import type { PageFetcher, PageOutcome } from './page-fetcher.js';
import type { CacheRequest, JsonValue, OutcomeCodec, SearchCache } from './search-cache.js';

const storedSchema = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('response'),
    status: z.number().int(),
    reason: z.string(),
    final_url: z.string(),
    content_type: z.string().nullable(),
    body_gzip_base64: z.string(),
    truncated_at: z.number().int().nullable(),
  }),
  z.object({ kind: z.literal('network_error'), message: z.string() }),
  z.object({ kind: z.literal('refused'), message: z.string() }),
]);

const PAGE_CODEC: OutcomeCodec<PageOutcome> = {
  schema: storedSchema,
  encode: (outcome): JsonValue => {
    if (outcome.kind !== 'response') return { kind: outcome.kind, message: outcome.message };
    return {
      kind: 'response',
      status: outcome.status,
      reason: outcome.reason,
      final_url: outcome.finalUrl,
      content_type: outcome.contentType ?? null,
      body_gzip_base64: gzipSync(outcome.body).toString('base64'),
      truncated_at: outcome.truncatedAt ?? null,
    };
  },
  decode: (value) => {
    const stored = storedSchema.parse(value);
    if (stored.kind !== 'response') return stored;
    return {
      kind: 'response',
      status: stored.status,
      reason: stored.reason,
      finalUrl: stored.final_url,
      contentType: stored.content_type ?? undefined,
      body: new Uint8Array(gunzipSync(Buffer.from(stored.body_gzip_base64, 'base64'))),
      truncatedAt: stored.truncated_at ?? undefined,
    };
  },
};

/** The cache request of a page fetch. */
export function pageCacheRequest(url: string): CacheRequest {
  return { kind: 'page', url };
}

/** Page fetches through a `SearchCache`. */
export class CachedPageFetcher implements PageFetcher {
  readonly name: string;

  /** `live` may be undefined in replay mode. */
  constructor(
    private readonly cache: SearchCache,
    private readonly live: PageFetcher | undefined,
  ) {
    this.name = `cache(${live?.name ?? 'replay'})`;
  }

  fetch(url: string, signal?: AbortSignal): Promise<PageOutcome> {
    const live = this.live;
    return this.cache.through(pageCacheRequest(url), PAGE_CODEC, live === undefined ? undefined : () => live.fetch(url, signal));
  }
}
