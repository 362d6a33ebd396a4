/**
 * WebSearchAPI: the backend of the web_search_base and web_search_no_snippet categories.
 *
 * Port of the reference's `web_search.py` (agentic spec §7) on top of the simulated-API
 * conventions (Python values in and out, `_signatures`, `_loadScenario`, public state = fields
 * without a leading underscore). Unlike the eight simulated classes its two methods do network I/O,
 * so they are `async` and resolve to the Python value the reference returns: the executor awaits
 * them (see `_asyncMethods`) and formats the value as for any other method (a list through `str()`,
 * a dict through `json.dumps`). Python exceptions reject the promise with a `PyException`, which
 * becomes `Error during execution: ...`; infrastructure failures (`WebSearchServiceError`,
 * `WebCacheError`, an abort) reject with other errors that must not become tool text.
 */
import { parseJsonLossless } from '../../py/json.js';
import { dictContains, getItem, noAttribute } from '../../py/ops.js';
import { pyStr } from '../../py/repr.js';
import { PyException, PyTuple, pyDict, pyTruthy, pyTypeName, type PyDict, type PyValue } from '../../py/value.js';
import { SimulatedApi, opt, req, type MethodSignatures, type SimContext } from '../../sim/simulated-api.js';
import { decodeResponseText } from './decode-response-text.js';
import { htmlToMarkdown } from './html-to-markdown.js';
import { htmlToText } from './html-to-text.js';
import type { PageFetcher, PageResponse } from './page-fetcher.js';
import { requestsParams } from './requests-params.js';
import type { SearchProvider, SearchRequest } from './search-provider.js';

/** What a WebSearchAPI instance talks to: the search service, the page fetcher and the run's abort signal. */
export interface WebBackends {
  readonly search: SearchProvider;
  readonly fetcher: PageFetcher;
  /** Aborts pending searches, retry waits and fetches (e.g. on SIGINT); the call then rejects. */
  readonly signal?: AbortSignal;
}

/** The error text when SerpAPI's answer has no `organic_results`. */
export const SEARCH_FAILED_MESSAGE = 'Failed to retrieve the search results from server. Please try again later.';

/** Python signatures of the public methods, in the reference's definition order. */
const SIGNATURES: MethodSignatures = {
  search_engine_query: [req('keywords'), opt('max_results', 10n), opt('region', 'wt-wt')],
  fetch_url_content: [req('url'), opt('mode', 'raw')],
};

/** The methods that return promises (all of them). */
const ASYNC_METHODS: ReadonlySet<string> = new Set(Object.keys(SIGNATURES));

/** The web-search backend: `search_engine_query` and `fetch_url_content` over injected backends. */
export class WebSearchAPI extends SimulatedApi {
  readonly _className = 'WebSearchAPI';
  readonly _signatures = SIGNATURES;
  /** Methods whose result is a promise the executor must await before formatting it. */
  readonly _asyncMethods = ASYNC_METHODS;

  // Public state (the reference's only public attribute).
  show_snippet: PyValue = true;

  constructor(
    ctx: SimContext,
    private readonly _backends: WebBackends,
  ) {
    super(ctx);
  }

  _loadScenario(scenario: PyDict, _longContext: boolean): void {
    // BFCL parity: web_search.py _load_scenario — initial_config["show_snippet"], a KeyError when absent.
    this.show_snippet = getItem(scenario, 'show_snippet');
  }

  /** `search_engine_query(keywords, max_results=10, region="wt-wt")`: a list of result dicts, or `{"error": ...}`. */
  async search_engine_query(keywords: PyValue, max_results: PyValue, region: PyValue): Promise<PyValue> {
    let request: SearchRequest;
    try {
      request = { engine: 'duckduckgo', params: requestsParams([['q', keywords], ['kl', region]]) };
    } catch (error) {
      // BFCL parity: web_search.py search_engine_query — an exception while sending (here: a value
      // requests cannot encode) is returned as {"error": str(e)}.
      if (error instanceof PyException) return errorDict(error.message);
      throw error;
    }
    const outcome = await this._backends.search.search(request, this._backends.signal);
    if (outcome.kind === 'network_error') return errorDict(outcome.message);
    let payload: PyDict;
    try {
      payload = pyDictOf(parseJsonLossless(outcome.body));
    } catch (error) {
      // BFCL parity: web_search.py search_engine_query — json.loads/dict() failures come back as
      // {"error": str(e)} (e.g. "Expecting value: line 1 column 1 (char 0)").
      if (error instanceof PyException) return errorDict(error.message);
      throw error;
    }
    if (!dictContains(payload, 'organic_results')) return errorDict(SEARCH_FAILED_MESSAGE);
    const results: PyValue[] = [];
    // BFCL parity: web_search.py search_engine_query — organic_results[:max_results] (Python slice,
    // raised errors propagate), keys read title, link, snippet in that order; no body without snippets.
    for (const result of sliceHead(getItem(payload, 'organic_results'), max_results)) {
      const title = getItem(result, 'title');
      const href = getItem(result, 'link');
      results.push(
        pyTruthy(this.show_snippet) ? pyDict({ title, href, body: getItem(result, 'snippet') }) : pyDict({ title, href }),
      );
    }
    return results;
  }

  /** `fetch_url_content(url, mode="raw")`: `{"content": ...}` or `{"error": ...}`; an invalid URL raises. */
  async fetch_url_content(url: PyValue, mode: PyValue): Promise<PyValue> {
    // BFCL parity: web_search.py fetch_url_content — the scheme check raises outside the try.
    if (typeof url !== 'string') throw noAttribute(url, 'startswith');
    if (!url.startsWith('http://') && !url.startsWith('https://')) throw new PyException('ValueError', `Invalid URL: ${url}`);
    const failed = (message: string): PyDict => errorDict(`An error occurred while fetching ${url}: ${message}`);
    const outcome = await this._backends.fetcher.fetch(url, this._backends.signal);
    if (outcome.kind !== 'response') return failed(outcome.message);
    // BFCL parity: requests Response.raise_for_status — 4xx/5xx become "<code> Client|Server Error: <reason> for url: <final url>".
    if (outcome.status >= 400 && outcome.status < 600) return failed(statusErrorText(outcome));
    try {
      const text = decodeResponseText(outcome.body, outcome.contentType, outcome.truncatedAt !== undefined);
      return pyDict({ content: convertPage(text, mode) + truncationNote(outcome) });
    } catch (error) {
      // BFCL parity: web_search.py fetch_url_content — every exception after the request is caught.
      if (error instanceof PyException) return failed(error.message);
      if (error instanceof Error) return failed(error.message);
      throw error;
    }
  }
}

/** A constructor-like factory for the executor's instance creation, bound to one set of backends. */
export function createWebSearchApiFactory(backends: WebBackends): (ctx: SimContext) => WebSearchAPI {
  return (ctx) => new WebSearchAPI(ctx, backends);
}

const errorDict = (message: string): PyDict => pyDict({ error: message });

/** The page text in the requested mode. */
function convertPage(text: string, mode: PyValue): string {
  // BFCL parity: web_search.py fetch_url_content — `mode == "raw"` etc. are plain equality tests, so
  // a non-str mode is "Unsupported mode: <str(mode)>", raised only after a successful fetch.
  if (mode === 'raw') return text;
  if (mode === 'markdown') return htmlToMarkdown(text);
  if (mode === 'truncate') return htmlToText(text);
  throw new PyException('ValueError', `Unsupported mode: ${pyStr(mode)}`);
}

function statusErrorText(response: PageResponse): string {
  const kind = response.status < 500 ? 'Client' : 'Server';
  return `${response.status} ${kind} Error: ${response.reason} for url: ${response.finalUrl}`;
}

/** Deviation: the reference reads pages whole; a capped page says so at the end of its content. */
function truncationNote(response: PageResponse): string {
  if (response.truncatedAt === undefined) return '';
  return `\n\n[Content truncated: the page is larger than ${response.truncatedAt} bytes; only the first ${response.truncatedAt} bytes were read.]`;
}

/** Python `dict(value)` for a decoded JSON value (SerpAPI's client calls `dict(json.loads(text))`). */
function pyDictOf(value: PyValue): PyDict {
  if (value instanceof Map) return value;
  if (Array.isArray(value) || typeof value === 'string') {
    const items = typeof value === 'string' ? Array.from(value) : value;
    const dict: PyDict = new Map();
    items.forEach((item, i) => {
      const pair = typeof item === 'string' ? Array.from(item) : Array.isArray(item) ? item : undefined;
      if (pair === undefined) {
        throw new PyException('TypeError', `cannot convert dictionary update sequence element #${i} to a sequence`);
      }
      if (pair.length !== 2) {
        throw new PyException('ValueError', `dictionary update sequence element #${i} has length ${pair.length}; 2 is required`);
      }
      dict.set(hashableKey(pair[0]!), pair[1]!);
    });
    return dict;
  }
  throw new PyException('TypeError', `'${pyTypeName(value)}' object is not iterable`);
}

function hashableKey(key: PyValue): string | bigint | number | boolean | null | PyTuple {
  if (Array.isArray(key) || key instanceof Map) throw new PyException('TypeError', `unhashable type: '${pyTypeName(key)}'`);
  return key as string | bigint | number | boolean | null | PyTuple;
}

/** Python `items[:stop]` for the value SerpAPI put under `organic_results`. */
function sliceHead(items: PyValue, stop: PyValue): readonly PyValue[] {
  const list = Array.isArray(items) ? items : typeof items === 'string' ? Array.from(items) : undefined;
  if (list === undefined) {
    if (items instanceof Map) throw new PyException('TypeError', "unhashable type: 'slice'");
    throw new PyException('TypeError', `'${pyTypeName(items)}' object is not subscriptable`);
  }
  if (stop === null) return list;
  let end: bigint;
  if (typeof stop === 'bigint') end = stop;
  else if (typeof stop === 'boolean') end = stop ? 1n : 0n;
  else throw new PyException('TypeError', 'slice indices must be integers or None or have an __index__ method');
  const length = BigInt(list.length);
  if (end < 0n) end += length;
  return list.slice(0, Number(end < 0n ? 0n : end > length ? length : end));
}
