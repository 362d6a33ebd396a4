import { gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { refusedRangeOf, type HostResolver } from '../../../src/agentic/web/address-guard.js';
import { BROWSER_HEADERS, HttpPageFetcher } from '../../../src/agentic/web/http-page-fetcher.js';
import type { PageOutcome } from '../../../src/agentic/web/page-fetcher.js';
import { fixture, startServer, toolText, webApi, type LocalServer } from './web-test-helpers.js';

let server: LocalServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** A page server: `/article` (the fixture), `/moved` → `/article`, `/loop`, `/big`, `/gzip`, `/broken`, `/missing`, `/hang`, `/to-private`. */
async function pages(): Promise<LocalServer> {
  server = await startServer((req, res) => {
    const path = req.url ?? '/';
    if (path === '/article') {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(fixture('article.html'));
    } else if (path === '/moved') {
      res.writeHead(302, { location: '/article' });
      res.end();
    } else if (path === '/loop') {
      res.writeHead(301, { location: '/loop' });
      res.end();
    } else if (path === '/big') {
      res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' });
      res.end('x'.repeat(10_000));
    } else if (path === '/gzip') {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'content-encoding': 'gzip' });
      res.end(gzipSync(Buffer.from('<p>zipped café</p>', 'utf8')));
    } else if (path === '/broken') {
      res.writeHead(500, { 'content-type': 'text/html' });
      res.end('<h1>Internal error</h1>');
    } else if (path === '/missing') {
      res.writeHead(404, { 'content-type': 'text/html' });
      res.end('nope');
    } else if (path === '/to-private') {
      res.writeHead(302, { location: 'http://10.1.2.3/admin' });
      res.end();
    } else if (path === '/to-named-private') {
      res.writeHead(307, { location: `http://intranet.test:${(req.socket.localPort ?? 0).toString()}/secret` });
      res.end();
    }
    // `/hang`: no answer
  });
  return server;
}

/** A fetcher that may reach only the loopback test server. */
const loopbackFetcher = (options: ConstructorParameters<typeof HttpPageFetcher>[0] = {}): HttpPageFetcher =>
  new HttpPageFetcher({ allowPrivateAddresses: ['127.0.0.1'], ...options });

const response = (outcome: PageOutcome) => {
  if (outcome.kind !== 'response') throw new Error(`expected a response, got ${JSON.stringify(outcome)}`);
  return outcome;
};

describe('HttpPageFetcher', () => {
  it('sends exactly the reference browser headers', async () => {
    const local = await pages();
    await loopbackFetcher().fetch(`${local.origin}/article`);
    const raw = local.requests[0]!.rawHeaders;
    const sent = new Map<string, string>();
    for (let i = 0; i < raw.length; i += 2) sent.set(raw[i]!.toLowerCase(), raw[i + 1]!);
    for (const [name, value] of Object.entries(BROWSER_HEADERS)) expect([name, sent.get(name.toLowerCase())]).toEqual([name, value]);
    expect(sent.get('sec-fetch-mode')).toBe('navigate');
  });

  it('follows redirects and reports the final URL, status and content type', async () => {
    const local = await pages();
    const outcome = response(await loopbackFetcher().fetch(`${local.origin}/moved`));
    expect(outcome).toMatchObject({ status: 200, reason: 'OK', finalUrl: `${local.origin}/article`, contentType: 'text/html; charset=utf-8' });
    expect(Buffer.from(outcome.body).toString('utf8')).toBe(fixture('article.html'));
    expect(local.requests.map((r) => r.url)).toEqual(['/moved', '/article']);
  });

  it('stops after maxRedirects with requests wording', async () => {
    const local = await pages();
    expect(await loopbackFetcher({ maxRedirects: 3 }).fetch(`${local.origin}/loop`)).toEqual({ kind: 'network_error', message: 'Exceeded 3 redirects.' });
    expect(local.requests).toHaveLength(4);
  });

  it('decodes a gzip body', async () => {
    const local = await pages();
    expect(Buffer.from(response(await loopbackFetcher().fetch(`${local.origin}/gzip`)).body).toString('utf8')).toBe('<p>zipped café</p>');
  });

  it('reads at most maxBytes and says where it cut', async () => {
    const local = await pages();
    const outcome = response(await loopbackFetcher({ maxBytes: 1000 }).fetch(`${local.origin}/big`));
    expect(outcome.body.length).toBe(1000);
    expect(outcome.truncatedAt).toBe(1000);
    const complete = response(await loopbackFetcher({ maxBytes: 10_000 }).fetch(`${local.origin}/big`));
    expect([complete.body.length, complete.truncatedAt]).toEqual([10_000, undefined]);
  });

  it('times out a page that never answers', async () => {
    const local = await pages();
    expect(await loopbackFetcher({ timeoutMs: 100 }).fetch(`${local.origin}/hang`)).toEqual({ kind: 'network_error', message: 'Request timed out after 100 ms' });
  });

  it('reports a refused connection as a network error', async () => {
    const local = await pages();
    const origin = local.origin;
    await local.close();
    server = undefined;
    const outcome = await loopbackFetcher().fetch(`${origin}/article`);
    expect(outcome.kind).toBe('network_error');
    expect(outcome.kind === 'network_error' ? outcome.message : '').toMatch(/ECONNREFUSED/);
  });

  it.each([
    ['file:///etc/passwd', 'refused: only http:// and https:// URLs are fetched, not file://'],
    ['ftp://example.org/x', 'refused: only http:// and https:// URLs are fetched, not ftp://'],
    ['http://localhost:8080/', 'refused: localhost is this machine (bfcl-ts fetches only public addresses)'],
    ['http://api.localhost/', 'refused: api.localhost is this machine (bfcl-ts fetches only public addresses)'],
    ['http://127.0.0.1/', 'refused: 127.0.0.1 is a loopback address (bfcl-ts fetches only public addresses)'],
    ['http://2130706433/', 'refused: 127.0.0.1 is a loopback address (bfcl-ts fetches only public addresses)'],
    ['http://10.0.0.7/', 'refused: 10.0.0.7 is a private address (bfcl-ts fetches only public addresses)'],
    ['http://192.168.1.1/', 'refused: 192.168.1.1 is a private address (bfcl-ts fetches only public addresses)'],
    ['http://169.254.169.254/latest/meta-data/', 'refused: 169.254.169.254 is a link-local address (bfcl-ts fetches only public addresses)'],
    ['http://[::1]:8080/', 'refused: ::1 is a loopback address (bfcl-ts fetches only public addresses)'],
    ['http://[::ffff:10.0.0.1]/', 'refused: ::ffff:a00:1 is a private address (bfcl-ts fetches only public addresses)'],
    ['http://[fe80::1]/', 'refused: fe80::1 is a link-local address (bfcl-ts fetches only public addresses)'],
    ['http://0.0.0.0/', 'refused: 0.0.0.0 is an unspecified address (bfcl-ts fetches only public addresses)'],
  ])('refuses %s by default, without a request', async (url, message) => {
    expect(await new HttpPageFetcher().fetch(url)).toEqual({ kind: 'refused', message });
  });

  it('refuses a hostname when any address it resolves to is private', async () => {
    const resolve: HostResolver = async (host) => (host === 'mixed.test' ? ['93.184.215.14', '10.9.8.7'] : ['127.0.0.1']);
    const fetcher = new HttpPageFetcher({ resolve });
    expect(await fetcher.fetch('http://mixed.test/')).toEqual({
      kind: 'refused',
      message: 'refused: mixed.test (10.9.8.7) is a private address (bfcl-ts fetches only public addresses)',
    });
    expect(await fetcher.fetch('http://rebinding.test/')).toEqual({
      kind: 'refused',
      message: 'refused: rebinding.test (127.0.0.1) is a loopback address (bfcl-ts fetches only public addresses)',
    });
  });

  it('connects to the address it checked (a resolved name reaches the allowed loopback server)', async () => {
    const local = await pages();
    const port = new URL(local.origin).port;
    const fetcher = loopbackFetcher({ resolve: async () => ['127.0.0.1'] });
    expect(response(await fetcher.fetch(`http://pages.test:${port}/article`)).status).toBe(200);
  });

  it('checks every redirect hop', async () => {
    const local = await pages();
    expect(await loopbackFetcher().fetch(`${local.origin}/to-private`)).toEqual({
      kind: 'refused',
      message: 'refused: 10.1.2.3 is a private address (bfcl-ts fetches only public addresses)',
    });
    const resolve: HostResolver = async () => ['192.168.7.7'];
    expect(await loopbackFetcher({ resolve }).fetch(`${local.origin}/to-named-private`)).toEqual({
      kind: 'refused',
      message: 'refused: intranet.test (192.168.7.7) is a private address (bfcl-ts fetches only public addresses)',
    });
  });

  it('reports a name that does not resolve as a network error', async () => {
    const resolve: HostResolver = async (host) => {
      throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
    };
    expect(await new HttpPageFetcher({ resolve }).fetch('http://nowhere.invalid/')).toEqual({
      kind: 'network_error',
      message: 'getaddrinfo ENOTFOUND nowhere.invalid',
    });
  });

  it('classifies addresses, IPv4 embedded in IPv6 included', () => {
    expect(
      ['8.8.8.8', '2606:4700::1111', '100.64.1.1', '224.0.0.1', '::ffff:127.0.0.1', '64:ff9b::a00:1', '64:ff9b::808:808', '2002:a00:1::', 'fd12::1'].map(
        refusedRangeOf,
      ),
    ).toEqual([undefined, undefined, 'shared (CGNAT)', 'multicast', 'loopback', 'private', undefined, 'private', 'private']);
  });
});

describe('fetch_url_content over HTTP', () => {
  it('returns the three modes of a served page', async () => {
    const local = await pages();
    const api = webApi({ fetcher: loopbackFetcher() });
    const url = `${local.origin}/article`;
    expect(await api.fetch_url_content(url, 'raw')).toEqual(new Map([['content', fixture('article.html')]]));
    expect(await api.fetch_url_content(url, 'truncate')).toEqual(new Map([['content', fixture('article.truncate.txt')]]));
    expect(await api.fetch_url_content(url, 'markdown')).toEqual(new Map([['content', fixture('article.markdown.md')]]));
  });

  it('shows a 500 page and a 404 page as requests errors', async () => {
    const local = await pages();
    const api = webApi({ fetcher: loopbackFetcher() });
    expect(await toolText(api, 'fetch_url_content', { url: `${local.origin}/broken` })).toBe(
      `{"error": "An error occurred while fetching ${local.origin}/broken: 500 Server Error: Internal Server Error for url: ${local.origin}/broken"}`,
    );
    expect(await toolText(api, 'fetch_url_content', { url: `${local.origin}/missing`, mode: 'truncate' })).toBe(
      `{"error": "An error occurred while fetching ${local.origin}/missing: 404 Client Error: Not Found for url: ${local.origin}/missing"}`,
    );
  });

  it('says so when the size cap cut the page', async () => {
    const local = await pages();
    const text = await toolText(webApi({ fetcher: loopbackFetcher({ maxBytes: 16 }) }), 'fetch_url_content', { url: `${local.origin}/big` });
    expect(text).toBe(
      '{"content": "xxxxxxxxxxxxxxxx\\n\\n[Content truncated: the page is larger than 16 bytes; only the first 16 bytes were read.]"}',
    );
  });

  it.each([
    ['http://localhost/', 'refused: localhost is this machine (bfcl-ts fetches only public addresses)'],
    ['http://10.0.0.1/', 'refused: 10.0.0.1 is a private address (bfcl-ts fetches only public addresses)'],
    ['http://169.254.169.254/', 'refused: 169.254.169.254 is a link-local address (bfcl-ts fetches only public addresses)'],
    ['http://[::1]/', 'refused: ::1 is a loopback address (bfcl-ts fetches only public addresses)'],
  ])('tells the model that %s was refused', async (url, message) => {
    expect(await toolText(webApi({ fetcher: new HttpPageFetcher() }), 'fetch_url_content', { url })).toBe(
      `{"error": "An error occurred while fetching ${url}: ${message}"}`,
    );
  });

  it('keeps file:// an invalid URL, as the reference raises before fetching', async () => {
    expect(await toolText(webApi({ fetcher: new HttpPageFetcher() }), 'fetch_url_content', { url: 'file:///etc/passwd' })).toBe(
      'Error during execution: Invalid URL: file:///etc/passwd',
    );
  });
});
