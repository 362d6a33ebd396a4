/**
 * Errors of the web-search backend that are not tool results: a misconfigured or exhausted search
 * service and a record/replay cache that cannot answer. The model never sees them; the agentic loop
 * turns them into a failed entry (and may stop the run), as for any other inference error.
 */
import { BfclError } from '../../util/errors.js';

/** Why the search service cannot be used at all. */
export type WebSearchServiceFailure = 'missing_api_key' | 'invalid_api_key' | 'out_of_searches' | 'rate_limited';

/** The search service refused every request of this run (no key, a bad key, no credit, 429s past the retry budget). */
export class WebSearchServiceError extends BfclError {
  readonly exitCode = 1;

  constructor(
    readonly failure: WebSearchServiceFailure,
    message: string,
    /** HTTP status of the answer that showed the failure, when there was one. */
    readonly status?: number,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** The record/replay cache could not be read or written. */
export class WebCacheError extends BfclError {
  readonly exitCode = 1;
}

/** Replay mode found no record for a request (it never falls back to the network). */
export class WebCacheMissError extends WebCacheError {
  constructor(
    readonly key: string,
    /** The request as canonical JSON (what the key was computed from). */
    readonly request: string,
    readonly file: string,
  ) {
    super(
      `web cache miss in replay mode: no record ${key} (${file}) for the request ${request}; ` +
        'record it first (cache mode record or auto) or run with the cache off',
    );
  }
}

/** A cache file exists but is not a record this version can use. */
export class WebCacheCorruptError extends WebCacheError {
  constructor(
    readonly file: string,
    readonly detail: string,
    options?: { cause?: unknown },
  ) {
    super(`web cache file ${file} is unusable: ${detail}; delete it to record the request again`, options);
  }
}
