import { describe, expect, it } from 'vitest';
import { WebSearchServiceError } from '../../../src/agentic/web/web-errors.js';
import { SEARCH_FAILED_MESSAGE, WebSearchAPI } from '../../../src/agentic/web/web-search-api.js';
import { PyException, PyTuple, pyDict, type PyValue } from '../../../src/py/value.js';
import { StubFetcher, StubSearch, fixture, pageResponse, toolText, webApi } from './web-test-helpers.js';

const SERP_BODY = fixture('serpapi-duckduckgo.json');
const serp = (body: string = SERP_BODY, status = 200): StubSearch => new StubSearch(() => ({ kind: 'response', status, body }));

const FIRST_TWO_WITH_SNIPPETS =
  `[{'title': 'Mountain gorilla - Wikipedia', 'href': 'https://en.wikipedia.org/wiki/Mountain_gorilla', ` +
  `'body': "The mountain gorilla's population was estimated at 1,063 in 2018."}, ` +
  `{'title': 'Gorillas "in the mist"', 'href': 'https://example.org/gorillas?lang=en&page=2', ` +
  `'body': 'Café notes:\\nline two\\xa0with nbsp \\u200b.'}]`;

describe('WebSearchAPI state and signatures', () => {
  it('has show_snippet as its only public state, from the scenario', () => {
    expect(webApi({}, true)._publicState()).toEqual([['show_snippet', true]]);
    expect(webApi({}, false)._publicState()).toEqual([['show_snippet', false]]);
  });

  it('raises KeyError when the scenario has no show_snippet (as _load_scenario does)', () => {
    const api = new WebSearchAPI({ longContext: new Map() }, { search: serp(), fetcher: new StubFetcher(() => pageResponse('')) });
    expect(() => api._loadScenario(pyDict({}), false)).toThrow(PyException);
    try {
      api._loadScenario(pyDict({}), false);
    } catch (error) {
      expect((error as PyException).pyType).toBe('KeyError');
      expect((error as PyException).message).toBe("'show_snippet'");
    }
  });

  it('lists the two methods with the reference defaults, both asynchronous', () => {
    const api = webApi({});
    expect(api._signatures).toEqual({
      search_engine_query: [
        { name: 'keywords', default: expect.anything() },
        { name: 'max_results', default: 10n },
        { name: 'region', default: 'wt-wt' },
      ],
      fetch_url_content: [
        { name: 'url', default: expect.anything() },
        { name: 'mode', default: 'raw' },
      ],
    });
    expect([...api._asyncMethods]).toEqual(['search_engine_query', 'fetch_url_content']);
  });
});

describe('search_engine_query', () => {
  it('returns title, href and body per result as a Python list (tool text = repr)', async () => {
    const search = serp();
    const text = await toolText(webApi({ search }), 'search_engine_query', { keywords: 'mountain gorilla population', max_results: 2n });
    expect(text).toBe(FIRST_TWO_WITH_SNIPPETS);
    expect(search.requests).toEqual([
      {
        engine: 'duckduckgo',
        params: [
          ['q', 'mountain gorilla population'],
          ['kl', 'wt-wt'],
        ],
      },
    ]);
  });

  it('hides the snippet when show_snippet is false (and needs no snippet key then)', async () => {
    const body = JSON.stringify({ organic_results: [{ title: 'T', link: 'https://t/' }] });
    expect(await toolText(webApi({ search: serp(body) }, false), 'search_engine_query', { keywords: 'x' })).toBe(
      "[{'title': 'T', 'href': 'https://t/'}]",
    );
    expect(await toolText(webApi({ search: serp(body) }, true), 'search_engine_query', { keywords: 'x' })).toBe(
      "Error during execution: 'snippet'",
    );
  });

  it.each<[string, PyValue, string]>([
    ['the default 10 keeps all three', 10n, '3 results'],
    ['None keeps all', null, '3 results'],
    ['0 keeps none', 0n, '0 results'],
    ['-1 drops the last', -1n, '2 results'],
    ['-5 keeps none', -5n, '0 results'],
    ['True is 1', true, '1 results'],
    ['a huge int keeps all', 10n ** 30n, '3 results'],
  ])('slices organic_results like Python: %s', async (_name, maxResults, expected) => {
    const api = webApi({ search: serp() });
    const value = await api.search_engine_query('q', maxResults, 'wt-wt');
    expect(`${(value as PyValue[]).length} results`).toBe(expected);
  });

  it.each<[PyValue]>([[2.0], ['2']])('raises TypeError for a non-integer max_results (%s)', async (maxResults) => {
    expect(await toolText(webApi({ search: serp() }), 'search_engine_query', { keywords: 'q', max_results: maxResults })).toBe(
      'Error during execution: slice indices must be integers or None or have an __index__ method',
    );
  });

  it('returns [] for an empty result list', async () => {
    expect(await toolText(webApi({ search: serp('{"organic_results": []}') }), 'search_engine_query', { keywords: 'q' })).toBe('[]');
  });

  it.each([
    ['no organic_results key', '{"search_metadata": {"status": "Success"}}'],
    ['a SerpAPI error payload without 429', `{"error": "Google hasn't returned any results for this query."}`],
  ])('reports the reference failure text for %s', async (_name, body) => {
    expect(await toolText(webApi({ search: serp(body) }), 'search_engine_query', { keywords: 'q' })).toBe(
      `{"error": "${SEARCH_FAILED_MESSAGE}"}`,
    );
  });

  it('reports a body that is not JSON with json.loads wording', async () => {
    expect(await toolText(webApi({ search: serp('<html>bad gateway</html>', 502) }), 'search_engine_query', { keywords: 'q' })).toBe(
      '{"error": "Expecting value: line 1 column 1 (char 0)"}',
    );
  });

  it('reports dict() of a JSON value that is not an object', async () => {
    expect(await toolText(webApi({ search: serp('42') }), 'search_engine_query', { keywords: 'q' })).toBe(
      `{"error": "'int' object is not iterable"}`,
    );
  });

  it('reports a network failure as {"error": str(e)}', async () => {
    const search = new StubSearch(() => ({ kind: 'network_error', message: 'fetch failed: connect ECONNREFUSED 127.0.0.1:9' }));
    expect(await toolText(webApi({ search }), 'search_engine_query', { keywords: 'q' })).toBe(
      '{"error": "fetch failed: connect ECONNREFUSED 127.0.0.1:9"}',
    );
  });

  it('encodes non-str arguments as requests does (no coercion by the API)', async () => {
    const search = serp();
    const api = webApi({ search });
    await api.search_engine_query(['a', 'b', null], 10n, null);
    await api.search_engine_query(5n, 10n, new PyTuple(['us-en']));
    await api.search_engine_query(true, 10n, 1.5);
    expect(search.requests.map((r) => r.params)).toEqual([
      [
        ['q', 'a'],
        ['q', 'b'],
      ],
      [
        ['q', '5'],
        ['kl', 'us-en'],
      ],
      [
        ['q', 'True'],
        ['kl', '1.5'],
      ],
    ]);
  });

  it('returns the UnicodeEncodeError of a lone surrogate without searching', async () => {
    const search = serp();
    expect(await toolText(webApi({ search }), 'search_engine_query', { keywords: 'ok \ud800' })).toBe(
      `{"error": "'utf-8' codec can't encode character '\\\\ud800' in position 3: surrogates not allowed"}`,
    );
    expect(search.requests).toEqual([]);
  });

  it('lets service failures through instead of turning them into tool text', async () => {
    const search = new StubSearch(() => {
      throw new WebSearchServiceError('out_of_searches', 'SerpAPI account has no searches left');
    });
    await expect(toolText(webApi({ search }), 'search_engine_query', { keywords: 'q' })).rejects.toBeInstanceOf(WebSearchServiceError);
  });
});

describe('fetch_url_content', () => {
  const page = fixture('article.html');
  const fetcherFor = (body: string | Uint8Array = page, contentType?: string): StubFetcher =>
    new StubFetcher(() => pageResponse(body, contentType));

  it('returns the page text in raw mode as {"content": ...} (json.dumps escapes non-ASCII)', async () => {
    const fetcher = fetcherFor('<p>Café “q”</p>');
    expect(await toolText(webApi({ fetcher }), 'fetch_url_content', { url: 'https://example.org/' })).toBe(
      '{"content": "<p>Caf\\u00e9 \\u201cq\\u201d</p>"}',
    );
    expect(fetcher.urls).toEqual(['https://example.org/']);
  });

  it.each([
    ['truncate', 'article.truncate.txt'],
    ['markdown', 'article.markdown.md'],
  ])('converts the page in %s mode', async (mode, golden) => {
    const value = await webApi({ fetcher: fetcherFor() }).fetch_url_content('https://example.org/', mode);
    expect(value).toEqual(pyDict({ content: fixture(golden) }));
  });

  it.each<[PyValue, string]>([
    ['pdf', 'pdf'],
    [null, 'None'],
    [['raw'], "['raw']"],
  ])('reports an unsupported mode after fetching (%s)', async (mode, shown) => {
    const fetcher = fetcherFor();
    expect(await toolText(webApi({ fetcher }), 'fetch_url_content', { url: 'https://example.org/a', mode })).toBe(
      `{"error": "An error occurred while fetching https://example.org/a: Unsupported mode: ${shown}"}`,
    );
    expect(fetcher.urls).toHaveLength(1);
  });

  it.each<[PyValue, string]>([
    ['ftp://example.org/file', 'Invalid URL: ftp://example.org/file'],
    ['file:///etc/passwd', 'Invalid URL: file:///etc/passwd'],
    ['HTTP://EXAMPLE.ORG/', 'Invalid URL: HTTP://EXAMPLE.ORG/'],
    ['example.org', 'Invalid URL: example.org'],
    [5n, "'int' object has no attribute 'startswith'"],
    [['https://x/'], "'list' object has no attribute 'startswith'"],
  ])('raises for a URL that is not an http(s) str (%s), without fetching', async (url, message) => {
    const fetcher = fetcherFor();
    expect(await toolText(webApi({ fetcher }), 'fetch_url_content', { url })).toBe(`Error during execution: ${message}`);
    expect(fetcher.urls).toEqual([]);
  });

  it.each([
    [404, 'Not Found', '404 Client Error: Not Found for url: https://example.org/final'],
    [500, 'Internal Server Error', '500 Server Error: Internal Server Error for url: https://example.org/final'],
    [599, '', '599 Server Error:  for url: https://example.org/final'],
  ])('reports HTTP %i with requests raise_for_status wording and the final URL', async (status, reason, message) => {
    const fetcher = new StubFetcher(() => pageResponse('oops', 'text/html', { status, reason, finalUrl: 'https://example.org/final' }));
    expect(await toolText(webApi({ fetcher }), 'fetch_url_content', { url: 'https://example.org/start' })).toBe(
      `{"error": "An error occurred while fetching https://example.org/start: ${message}"}`,
    );
  });

  it('passes 3xx answers without Location through as content (requests does not raise for them)', async () => {
    const fetcher = new StubFetcher(() => pageResponse('moved', 'text/plain', { status: 304, reason: 'Not Modified' }));
    expect(await toolText(webApi({ fetcher }), 'fetch_url_content', { url: 'https://example.org/' })).toBe('{"content": "moved"}');
  });

  it('reports network failures and refusals with the reference prefix', async () => {
    const down = new StubFetcher(() => ({ kind: 'network_error', message: 'getaddrinfo ENOTFOUND nowhere.invalid' }));
    expect(await toolText(webApi({ fetcher: down }), 'fetch_url_content', { url: 'https://nowhere.invalid/' })).toBe(
      '{"error": "An error occurred while fetching https://nowhere.invalid/: getaddrinfo ENOTFOUND nowhere.invalid"}',
    );
    const refused = new StubFetcher(() => ({ kind: 'refused', message: 'refused: 10.0.0.1 is a private address (bfcl-ts fetches only public addresses)' }));
    expect(await toolText(webApi({ fetcher: refused }), 'fetch_url_content', { url: 'http://10.0.0.1/' })).toBe(
      '{"error": "An error occurred while fetching http://10.0.0.1/: refused: 10.0.0.1 is a private address (bfcl-ts fetches only public addresses)"}',
    );
  });

  it('says at the end of the content when the size cap cut the page', async () => {
    const fetcher = new StubFetcher(() => pageResponse('<p>first part</p><p>sec', 'text/html', { truncatedAt: 24 }));
    const note = '\n\n[Content truncated: the page is larger than 24 bytes; only the first 24 bytes were read.]';
    expect(await webApi({ fetcher }).fetch_url_content('https://example.org/', 'raw')).toEqual(
      pyDict({ content: `<p>first part</p><p>sec${note}` }),
    );
    expect(await webApi({ fetcher }).fetch_url_content('https://example.org/', 'truncate')).toEqual(
      pyDict({ content: `first part\nsec${note}` }),
    );
  });

  it('decodes the body with requests charset rules', async () => {
    const cafeUtf8 = Buffer.from('café', 'utf8');
    const cases: [Uint8Array, string | undefined, string][] = [
      [Buffer.from([0x63, 0x61, 0x66, 0xe9]), 'text/html', 'café'],
      [cafeUtf8, 'text/html', 'cafÃ©'],
      [cafeUtf8, 'text/html; charset="UTF-8"', 'café'],
      [cafeUtf8, 'application/json', 'café'],
      [cafeUtf8, undefined, 'café'],
    ];
    for (const [body, contentType, content] of cases) {
      const value = await webApi({ fetcher: new StubFetcher(() => pageResponse(body, contentType)) }).fetch_url_content('https://x.org/', 'raw');
      expect(value).toEqual(pyDict({ content }));
    }
  });
});
