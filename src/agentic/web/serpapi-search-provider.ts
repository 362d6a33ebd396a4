/**
 * SerpAPI's DuckDuckGo engine, as the reference queries it through `serpapi.GoogleSearch(params)
 * .get_dict()`: one GET of `<base>/search` per attempt, the body returned as text whatever the
 * status, rate limits retried within a bounded policy, and the failures that would make every
 * later search fail too (no key, a bad key, no credit left) thrown as `WebSearchServiceError`.
 */
import { parseJsonLossless } from '../../py/json.js';
import { pyStr } from '../../py/repr.js';
import { PyException, type PyValue } from '../../py/value.js';
import { networkErrorText } from './network-error-text.js';
import { encodeQuery } from './requests-params.js';
import { createRetryPolicy, retryWaitMs, type RetryPolicy } from './retry-policy.js';
import type { SearchOutcome, SearchParam, SearchProvider, SearchRequest } from './search-provider.js';
import { WebSearchServiceError } from './web-errors.js';

/** SerpAPI's public endpoint (the reference's `SerpApiClient.BACKEND`). */
export const SERPAPI_BASE_URL = 'https://serpapi.com';

/** Options of the SerpAPI provider; the key comes from the caller, never from the environment. */
export interface SerpApiOptions {
  /** The SerpAPI key; searching without one throws `WebSearchServiceError('missing_api_key')`. */
  readonly apiKey: string | undefined;
  /** Scheme, host and optional path prefix; `/search` is appended. Default `https://serpapi.com`. */
  readonly baseUrl?: string;
  /** Deadline of one attempt (request and body). Default 60000 (the reference: none in practice). */
  readonly timeoutMs?: number;
  readonly retry?: RetryPolicy;
}

/** Where the key goes when a search fails for want of it. */
const KEY_HINT = 'pass a SerpAPI key (SERPAPI_API_KEY) or replay searches from a web cache';

/** A `SearchProvider` that queries SerpAPI over HTTPS. */
export class SerpApiSearchProvider implements SearchProvider {
  readonly name = 'serpapi';
  private readonly baseUrl: string;
  private readonly timeoutMs: number;
  private readonly retry: RetryPolicy;

  constructor(private readonly options: SerpApiOptions) {
    this.baseUrl = (options.baseUrl ?? SERPAPI_BASE_URL).replace(/\/+$/, '');
    this.timeoutMs = options.timeoutMs ?? 60_000;
    this.retry = options.retry ?? createRetryPolicy();
  }

  /** The URL of one attempt, with the reference's parameters in the reference's order. */
  requestUrl(request: SearchRequest): string {
    const apiKey = this.options.apiKey;
    // BFCL parity: web_search.py search_engine_query + serpapi SerpApiClient.get_json/construct_url —
    // params {engine, q, kl, api_key}, then get_json adds output=json and construct_url source=python;
    // requests drops None values (an unset key is simply absent).
    const params: SearchParam[] = [['engine', request.engine], ...request.params];
    if (apiKey !== undefined && apiKey !== '') params.push(['api_key', apiKey]);
    params.push(['output', 'json'], ['source', 'python']);
    return `${this.baseUrl}/search?${encodeQuery(params)}`;
  }

  async search(request: SearchRequest, signal?: AbortSignal): Promise<SearchOutcome> {
    if (this.options.apiKey === undefined || this.options.apiKey === '') {
      // Deviation: the reference sends the request without a key and shows the model SerpAPI's
      // error as "Failed to retrieve the search results"; a run without a key is a setup error.
      throw new WebSearchServiceError('missing_api_key', `SerpAPI key missing: ${KEY_HINT}`);
    }
    const url = this.requestUrl(request);
    for (let attempt = 1; ; attempt++) {
      const outcome = await this.attempt(url, signal);
      const errorText = outcome.kind === 'response' ? payloadError(outcome.body) : undefined;
      if (outcome.kind === 'response') throwIfServiceUnusable(outcome.status, errorText);
      const rateLimit = rateLimitReason(outcome, errorText);
      if (rateLimit === undefined) return outcome;
      if (attempt >= this.retry.maxAttempts) {
        throw new WebSearchServiceError(
          'rate_limited',
          `SerpAPI still rate-limited after ${attempt} attempt${attempt === 1 ? '' : 's'} (${rateLimit}); ` +
            'the hourly throughput limit of the key is exceeded: wait, lower the concurrency or raise the retry budget',
          outcome.kind === 'response' ? outcome.status : undefined,
        );
      }
      const waitMs = retryWaitMs(this.retry, attempt);
      this.retry.onRetry?.({ attempt, waitMs, reason: rateLimit });
      await this.retry.sleep(waitMs, signal);
    }
  }

  /** One GET; network failures become `network_error` outcomes, a caller's abort is rethrown. */
  private async attempt(url: string, signal: AbortSignal | undefined): Promise<SearchOutcome> {
    const deadline = new AbortController();
    const timer = setTimeout(() => deadline.abort(new Error(`timed out after ${this.timeoutMs} ms`)), this.timeoutMs);
    const onAbort = (): void => deadline.abort(signal!.reason);
    if (signal?.aborted === true) throw signal.reason;
    signal?.addEventListener('abort', onAbort, { once: true });
    try {
      const response = await fetch(url, { headers: { Accept: '*/*' }, signal: deadline.signal });
      return { kind: 'response', status: response.status, body: await response.text() };
    } catch (error) {
      // A caller's abort is not a network failure of the page: it ends the call.
      if (isAborted(signal)) throw signal!.reason;
      return { kind: 'network_error', message: networkErrorText(error, deadline.signal) };
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    }
  }
}

/** `str(payload["error"])` when the body is a JSON object with an `error` key. */
function payloadError(body: string): string | undefined {
  let payload: PyValue;
  try {
    payload = parseJsonLossless(body);
  } catch (error) {
    if (error instanceof PyException) return undefined;
    throw error;
  }
  if (!(payload instanceof Map)) return undefined;
  const value = payload.get('error');
  return value === undefined ? undefined : pyStr(value);
}

/** Throw for answers that mean no search of this run can succeed (SerpAPI's documented errors). */
function throwIfServiceUnusable(status: number, errorText: string | undefined): void {
  const text = errorText ?? '';
  // Deviation: the reference shows these to the model as "Failed to retrieve the search results";
  // they are account problems that fail every search, so the run is told instead.
  if (status === 401 || /invalid api key/i.test(text)) {
    throw new WebSearchServiceError('invalid_api_key', `SerpAPI rejected the key (HTTP ${status}): ${text || 'no error text'}`, status);
  }
  if (/run out of searches|searches for the month|out of searches/i.test(text)) {
    throw new WebSearchServiceError('out_of_searches', `SerpAPI account has no searches left (HTTP ${status}): ${text}`, status);
  }
  if (status === 403) {
    throw new WebSearchServiceError('invalid_api_key', `SerpAPI refused the account (HTTP 403): ${text || 'no error text'}`, status);
  }
}

/** Why an outcome is a rate limit to retry, or undefined. */
function rateLimitReason(outcome: SearchOutcome, errorText: string | undefined): string | undefined {
  // BFCL parity: web_search.py search_engine_query — retried when "429" is in str(exception) or in
  // str(payload["error"]); nothing else is retried.
  if (outcome.kind === 'network_error') return outcome.message.includes('429') ? outcome.message : undefined;
  if (errorText?.includes('429') === true) return errorText;
  // Extension: the status itself (SerpAPI's throughput-limit text need not contain "429").
  if (outcome.status === 429) return `HTTP 429${errorText === undefined ? '' : `: ${errorText}`}`;
  return undefined;
}

/** Whether the caller's signal has fired (a function, so the check is not narrowed away after an await). */
function isAborted(signal: AbortSignal | undefined): boolean {
  return signal?.aborted === true;
}
