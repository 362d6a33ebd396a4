/**
 * Wiring of the web-search backends from plain options (the CLI reads flags and the environment
 * and passes values in; nothing here reads `process.env`): the SerpAPI provider, the HTTP page
 * fetcher, and the record/replay cache in front of both when a cache mode is set.
 */
import { UsageError } from '../../util/errors.js';
import type { HostResolver, PrivateAddressPolicy } from './address-guard.js';
import { CachedPageFetcher } from './cached-page-fetcher.js';
import { CachedSearchProvider } from './cached-search-provider.js';
import { HttpPageFetcher } from './http-page-fetcher.js';
import { createRetryPolicy, type RetryNotice } from './retry-policy.js';
import { SearchCache, WEB_CACHE_MODES, type WebCacheMode } from './search-cache.js';
import { SerpApiSearchProvider } from './serpapi-search-provider.js';
import type { WebBackends } from './web-search-api.js';

/** Everything the web backends can be configured with; all optional except what the mode needs. */
export interface WebBackendOptions {
  /** SerpAPI key; required unless `cacheMode` is `replay`. */
  readonly serpApiKey?: string;
  /** SerpAPI endpoint (default `https://serpapi.com`); tests point it at a local server. */
  readonly serpApiBaseUrl?: string;
  /** Default `off` (reference behaviour: every call goes to the network). */
  readonly cacheMode?: WebCacheMode;
  /** Directory of the cache records; required unless `cacheMode` is `off`. */
  readonly cacheDir?: string;
  /** Deadline of one SerpAPI attempt (default 60000 ms). */
  readonly searchTimeoutMs?: number;
  /** Deadline of each page request (default 20000 ms, the reference's timeout). */
  readonly fetchTimeoutMs?: number;
  /** Page bytes read at most (default 5 MiB). */
  readonly maxPageBytes?: number;
  /** Redirects followed at most (default 30). */
  readonly maxRedirects?: number;
  /** Attempts per search when SerpAPI answers 429 (default 8; the reference retries forever). */
  readonly retryMaxAttempts?: number;
  /** Cap of the doubling 429 backoff (default 120000 ms, the reference's). */
  readonly retryMaxBackoffMs?: number;
  /** Backoff before the first retry (default 2000 ms, the reference's). */
  readonly retryInitialBackoffMs?: number;
  /** Private addresses pages may come from (default none: only public addresses are fetched). */
  readonly allowPrivateAddresses?: PrivateAddressPolicy;
  /** Aborts pending searches, waits and fetches (the run's cancellation). */
  readonly signal?: AbortSignal;
  /** Told before each 429 wait (the CLI logs it; the reference prints a banner). */
  readonly onRetry?: (notice: RetryNotice) => void;
  /** Test seams: randomness and sleep of the backoff, host resolution, clock of the records. */
  readonly random?: () => number;
  readonly sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  readonly resolveHost?: HostResolver;
  readonly now?: () => Date;
}

/** Build the search provider and page fetcher for `WebSearchAPI`; throws `UsageError` for an unusable combination. */
export function createWebBackends(options: WebBackendOptions = {}): WebBackends {
  const mode = options.cacheMode ?? 'off';
  if (!WEB_CACHE_MODES.includes(mode)) {
    throw new UsageError(`unknown web cache mode '${String(mode)}' (expected ${WEB_CACHE_MODES.join(', ')})`);
  }
  const apiKey = options.serpApiKey === '' ? undefined : options.serpApiKey;
  if (mode !== 'replay' && apiKey === undefined) {
    throw new UsageError(
      `the web search categories need a SerpAPI key (SERPAPI_API_KEY)${mode === 'off' ? '' : ` in web cache mode ${mode}`}; ` +
        'without one, replay searches recorded earlier (web cache mode replay)',
    );
  }
  if (mode !== 'off' && (options.cacheDir === undefined || options.cacheDir === '')) {
    throw new UsageError(`web cache mode ${mode} needs a cache directory`);
  }
  requirePositive('retryMaxAttempts', options.retryMaxAttempts, true);
  requirePositive('searchTimeoutMs', options.searchTimeoutMs);
  requirePositive('fetchTimeoutMs', options.fetchTimeoutMs);
  requirePositive('maxPageBytes', options.maxPageBytes, true);
  requirePositive('retryMaxBackoffMs', options.retryMaxBackoffMs);
  requirePositive('retryInitialBackoffMs', options.retryInitialBackoffMs);
  if (options.maxRedirects !== undefined && !(Number.isInteger(options.maxRedirects) && options.maxRedirects >= 0)) {
    throw new UsageError(`web option maxRedirects must be a whole number >= 0, got ${options.maxRedirects}`);
  }

  const search =
    apiKey === undefined
      ? undefined
      : new SerpApiSearchProvider({
          apiKey,
          ...(options.serpApiBaseUrl === undefined ? {} : { baseUrl: options.serpApiBaseUrl }),
          ...(options.searchTimeoutMs === undefined ? {} : { timeoutMs: options.searchTimeoutMs }),
          retry: createRetryPolicy({
            ...(options.retryMaxAttempts === undefined ? {} : { maxAttempts: options.retryMaxAttempts }),
            ...(options.retryMaxBackoffMs === undefined ? {} : { maxBackoffMs: options.retryMaxBackoffMs }),
            ...(options.retryInitialBackoffMs === undefined ? {} : { initialBackoffMs: options.retryInitialBackoffMs }),
            ...(options.random === undefined ? {} : { random: options.random }),
            ...(options.sleep === undefined ? {} : { sleep: options.sleep }),
            ...(options.onRetry === undefined ? {} : { onRetry: options.onRetry }),
          }),
        });
  // Replay never touches the network: no live fetcher is even built.
  const fetcher =
    mode === 'replay'
      ? undefined
      : new HttpPageFetcher({
          ...(options.fetchTimeoutMs === undefined ? {} : { timeoutMs: options.fetchTimeoutMs }),
          ...(options.maxPageBytes === undefined ? {} : { maxBytes: options.maxPageBytes }),
          ...(options.maxRedirects === undefined ? {} : { maxRedirects: options.maxRedirects }),
          ...(options.allowPrivateAddresses === undefined ? {} : { allowPrivateAddresses: options.allowPrivateAddresses }),
          ...(options.resolveHost === undefined ? {} : { resolve: options.resolveHost }),
        });
  const signal = options.signal === undefined ? {} : { signal: options.signal };

  if (mode === 'off') return { search: search!, fetcher: fetcher!, ...signal };
  const cache = new SearchCache({ dir: options.cacheDir!, mode, ...(options.now === undefined ? {} : { now: options.now }) });
  return {
    search: new CachedSearchProvider(cache, mode === 'replay' ? undefined : search, 'serpapi'),
    fetcher: new CachedPageFetcher(cache, fetcher),
    ...signal,
  };
}

/** A UsageError unless `value` is absent or a positive (whole, if `integer`) number. */
function requirePositive(name: string, value: number | undefined, integer = false): void {
  if (value === undefined) return;
  if (Number.isFinite(value) && value > 0 && (!integer || Number.isInteger(value))) return;
  throw new UsageError(`web option ${name} must be a positive ${integer ? 'whole ' : ''}number, got ${value}`);
}
