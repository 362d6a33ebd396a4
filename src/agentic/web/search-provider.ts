/**
 * The search service behind `WebSearchAPI.search_engine_query`, as an injected interface so that
 * tests and replays never open a socket. A provider returns the service's raw answer; turning it
 * into the tool result (JSON parsing, `organic_results`, snippet hiding) is the API's job, so a
 * recorded answer replays through the same code as a live one.
 */

/** One query parameter as sent on the wire: name and text value. */
export type SearchParam = readonly [name: string, value: string];

/** A search request, normalised: what a provider sends besides its credentials and output options. */
export interface SearchRequest {
  /** The engine the service is asked to use (`duckduckgo`, as in the reference). */
  readonly engine: string;
  /** `q` and `kl` as requests would encode them, in order (a list value repeats the name; None drops it). */
  readonly params: readonly SearchParam[];
}

/** The service answered (any HTTP status); `body` is the response text. */
export interface SearchResponse {
  readonly kind: 'response';
  readonly status: number;
  readonly body: string;
}

/** No answer: the request failed before a response arrived; `message` is what the tool result shows. */
export interface SearchNetworkError {
  readonly kind: 'network_error';
  readonly message: string;
}

/** What one search produced. */
export type SearchOutcome = SearchResponse | SearchNetworkError;

/** A search service (SerpAPI, or a cache in front of it). */
export interface SearchProvider {
  /** Stable provider id; part of the cache key. */
  readonly name: string;
  /**
   * Run one search. Rate limits are retried inside; service-level failures that make every search
   * fail (missing or invalid key, no credit) throw `WebSearchServiceError` instead of returning.
   */
  search(request: SearchRequest, signal?: AbortSignal): Promise<SearchOutcome>;
}
