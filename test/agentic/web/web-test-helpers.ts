/** Shared set-up of the web backend tests: a loopback HTTP server, stub backends and tool text as the async executor path would show it. */
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { bindArguments } from '../../../src/exec/bind-arguments.js';
import { executionErrorText, serializeResult } from '../../../src/exec/serialize-result.js';
import { PyException, pyDict, type PyValue } from '../../../src/py/value.js';
import type { PageFetcher, PageOutcome, PageResponse } from '../../../src/agentic/web/page-fetcher.js';
import type { SearchOutcome, SearchProvider, SearchRequest } from '../../../src/agentic/web/search-provider.js';
import { WebSearchAPI, type WebBackends } from '../../../src/agentic/web/web-search-api.js';

/** A fixture file of test/fixtures/web as text. */
export function fixture(name: string): string {
  return readFileSync(fileURLToPath(new URL(`../../fixtures/web/${name}`, import.meta.url)), 'utf8');
}

/** One request the local server received. */
export interface ReceivedRequest {
  readonly method: string;
  readonly url: string;
  readonly rawHeaders: readonly string[];
}

/** A server on 127.0.0.1 with a random port. */
export interface LocalServer {
  readonly origin: string;
  readonly requests: ReceivedRequest[];
  close(): Promise<void>;
}

/** Start a loopback HTTP server answering with `handler`. */
export async function startServer(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<LocalServer> {
  const requests: ReceivedRequest[] = [];
  const server = createServer((req, res) => {
    requests.push({ method: req.method ?? '', url: req.url ?? '', rawHeaders: req.rawHeaders });
    handler(req, res);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    requests,
    close: async () => {
      server.closeAllConnections();
      server.close();
      await once(server, 'close');
    },
  };
}

/** A search provider that returns scripted outcomes and records the requests. */
export class StubSearch implements SearchProvider {
  readonly name = 'stub';
  readonly requests: SearchRequest[] = [];
  constructor(private readonly answer: (request: SearchRequest) => SearchOutcome | Promise<SearchOutcome>) {}
  async search(request: SearchRequest): Promise<SearchOutcome> {
    this.requests.push(request);
    return this.answer(request);
  }
}

/** A page fetcher that returns scripted outcomes and records the URLs. */
export class StubFetcher implements PageFetcher {
  readonly name = 'stub';
  readonly urls: string[] = [];
  constructor(private readonly answer: (url: string) => PageOutcome | Promise<PageOutcome>) {}
  async fetch(url: string): Promise<PageOutcome> {
    this.urls.push(url);
    return this.answer(url);
  }
}

/** A 200 answer with a body. */
export function pageResponse(body: string | Uint8Array, contentType: string | undefined = 'text/html; charset=utf-8', more: Partial<PageResponse> = {}): PageResponse {
  return {
    kind: 'response',
    status: 200,
    reason: 'OK',
    finalUrl: 'https://example.org/',
    contentType,
    body: typeof body === 'string' ? Buffer.from(body, 'utf8') : body,
    truncatedAt: undefined,
    ...more,
  };
}

const unusedSearch = new StubSearch(() => {
  throw new Error('search not expected');
});
const unusedFetcher = new StubFetcher(() => {
  throw new Error('fetch not expected');
});

/** A WebSearchAPI after `_load_scenario({"show_snippet": showSnippet})`. */
export function webApi(backends: Partial<WebBackends>, showSnippet: PyValue = true): WebSearchAPI {
  const api = new WebSearchAPI({ longContext: new Map() }, { search: unusedSearch, fetcher: unusedFetcher, ...backends });
  api._loadScenario(pyDict({ show_snippet: showSnippet }), false);
  return api;
}

/**
 * The tool text of one call, as the executor's async path produces it: keyword arguments bound to
 * `_signatures`, the promise awaited, the value serialised, a Python exception as "Error during execution".
 */
export async function toolText(api: WebSearchAPI, method: string, kwargs: Record<string, PyValue>): Promise<string> {
  const args = bindArguments(api._className, method, api._signatures[method]!, [], Object.entries(kwargs));
  const fn = (api as unknown as Record<string, (...a: PyValue[]) => Promise<PyValue>>)[method]!;
  try {
    return serializeResult(await fn.apply(api, args));
  } catch (error) {
    if (error instanceof PyException) return executionErrorText(error.message);
    throw error;
  }
}
