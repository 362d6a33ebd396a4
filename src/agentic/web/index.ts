/**
 * The web-search backend of the web_search_base / web_search_no_snippet categories: the
 * `WebSearchAPI` class, its injected search provider and page fetcher, the record/replay cache and
 * the factory that wires them from plain options.
 */
export { WebSearchAPI, createWebSearchApiFactory, SEARCH_FAILED_MESSAGE, type WebBackends } from './web-search-api.js';
export { createWebBackends, type WebBackendOptions } from './create-web-backends.js';
export type { SearchProvider, SearchRequest, SearchOutcome, SearchParam } from './search-provider.js';
export type { PageFetcher, PageOutcome, PageResponse } from './page-fetcher.js';
export { SerpApiSearchProvider, SERPAPI_BASE_URL, type SerpApiOptions } from './serpapi-search-provider.js';
export { HttpPageFetcher, BROWSER_HEADERS, type HttpPageFetcherOptions } from './http-page-fetcher.js';
export { createRetryPolicy, type RetryPolicy, type RetryNotice } from './retry-policy.js';
export { SearchCache, WEB_CACHE_MODES, summarizeWebCache, writeWebCacheManifest, type WebCacheMode } from './search-cache.js';
export { CachedSearchProvider } from './cached-search-provider.js';
export { CachedPageFetcher } from './cached-page-fetcher.js';
export { WebCacheCorruptError, WebCacheError, WebCacheMissError, WebSearchServiceError, type WebSearchServiceFailure } from './web-errors.js';
export { htmlToText } from './html-to-text.js';
export { htmlToMarkdown } from './html-to-markdown.js';
