/**
 * The page download behind `WebSearchAPI.fetch_url_content`, as an injected interface so that
 * tests and replays never open a socket. A fetcher returns the HTTP exchange (status and bytes);
 * decoding and the raw/markdown/truncate conversion happen above it, so one recorded page serves
 * every mode and a replay runs the same converters as a live run.
 */

/** A final (non-redirect) HTTP answer. */
export interface PageResponse {
  readonly kind: 'response';
  readonly status: number;
  /** The reason phrase of the status line (requests' `response.reason`). */
  readonly reason: string;
  /** The URL after redirects (requests' `response.url`). */
  readonly finalUrl: string;
  /** The `Content-Type` header, undefined when absent. */
  readonly contentType: string | undefined;
  /** The body after content decoding (gzip, deflate, br), at most the size cap. */
  readonly body: Uint8Array;
  /** The size cap in bytes when the body was longer and cut there; undefined when complete. */
  readonly truncatedAt: number | undefined;
}

/** No answer: the request failed (DNS, connection, timeout, too many redirects). */
export interface PageNetworkError {
  readonly kind: 'network_error';
  readonly message: string;
}

/** The fetcher would not contact the URL (scheme or address policy); `message` says why. */
export interface PageRefused {
  readonly kind: 'refused';
  readonly message: string;
}

/** What one page fetch produced. */
export type PageOutcome = PageResponse | PageNetworkError | PageRefused;

/** A page source (HTTP, or a cache in front of it). */
export interface PageFetcher {
  /** Stable fetcher id, for logs. */
  readonly name: string;
  /** GET `url` (following redirects); a caller's abort rejects instead of returning an outcome. */
  fetch(url: string, signal?: AbortSignal): Promise<PageOutcome>;
}
