/**
 * Page fetching over HTTP(S) with node:http/https: the reference's browser-like headers sent as
 * given, redirects followed by hand (each hop checked again, at most 30 as in requests), a deadline
 * per hop, gzip/deflate/br decoding, and a size cap on the decoded body.
 *
 * Not Node's `fetch`: undici replaces the reference's `Sec-Fetch-Mode: navigate` with `cors`, and
 * it resolves hosts itself, so an address checked beforehand need not be the one it connects to.
 * Here the connection goes through `createGuardedLookup`, which checks what it connects to.
 */
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { Readable } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import {
  RefusedAddressError,
  checkUrlTarget,
  createGuardedLookup,
  resolveWithDns,
  type HostResolver,
  type PrivateAddressPolicy,
} from './address-guard.js';
import { networkErrorText } from './network-error-text.js';
import type { PageFetcher, PageOutcome } from './page-fetcher.js';

/** The headers the reference sends with every page request (a desktop Chrome's). */
export const BROWSER_HEADERS: Readonly<Record<string, string>> = {
  // BFCL parity: web_search.py fetch_url_content — these exact headers.
  'User-Agent': 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/112.0.0.0 Safari/537.36',
  Accept:
    'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,image/apng,*/*;q=0.8,application/signed-exchange;v=b3;q=0.7',
  'Accept-Language': 'en-US,en;q=0.9',
  'Accept-Encoding': 'gzip, deflate, br',
  Connection: 'keep-alive',
  'Upgrade-Insecure-Requests': '1',
  Referer: 'https://www.google.com/',
  'Sec-Fetch-Site': 'same-origin',
  'Sec-Fetch-Mode': 'navigate',
  'Sec-Fetch-User': '?1',
  'Sec-Fetch-Dest': 'document',
};

/** Options of the HTTP fetcher; every field has the default noted. */
export interface HttpPageFetcherOptions {
  /** Deadline of each request, headers and body (default 20000, the reference's `timeout=20`). */
  readonly timeoutMs?: number;
  /** Decoded body bytes read at most; the rest is not downloaded (default 5 MiB; the reference has no cap). */
  readonly maxBytes?: number;
  /** Redirects followed at most (default 30, requests' limit). */
  readonly maxRedirects?: number;
  /** Private addresses that may still be contacted (default none). */
  readonly allowPrivateAddresses?: PrivateAddressPolicy;
  /** Host resolution for the address check (default node:dns lookup, all addresses). */
  readonly resolve?: HostResolver;
}

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

type HopResult = PageOutcome | { readonly kind: 'redirect'; readonly location: string };

/** A `PageFetcher` that downloads pages with node:http and node:https. */
export class HttpPageFetcher implements PageFetcher {
  readonly name = 'http';
  private readonly timeoutMs: number;
  private readonly maxBytes: number;
  private readonly maxRedirects: number;
  private readonly policy: PrivateAddressPolicy;
  private readonly lookup: ReturnType<typeof createGuardedLookup> | undefined;

  constructor(options: HttpPageFetcherOptions = {}) {
    this.timeoutMs = options.timeoutMs ?? 20_000;
    this.maxBytes = options.maxBytes ?? 5 * 1024 * 1024;
    this.maxRedirects = options.maxRedirects ?? 30;
    this.policy = options.allowPrivateAddresses ?? false;
    this.lookup = this.policy === true ? undefined : createGuardedLookup(this.policy, options.resolve ?? resolveWithDns);
  }

  async fetch(url: string, signal?: AbortSignal): Promise<PageOutcome> {
    let current: URL;
    try {
      current = new URL(url);
    } catch {
      return { kind: 'network_error', message: `Invalid URL '${url}': the URL cannot be parsed` };
    }
    for (let redirects = 0; ; redirects++) {
      // Checked for every hop: a public page may redirect to an internal address.
      const target = checkUrlTarget(current, this.policy);
      if (target.kind === 'refused') return target;
      const hop = await this.fetchOnce(current, signal);
      if (hop.kind !== 'redirect') return hop;
      if (redirects >= this.maxRedirects) {
        // BFCL parity: requests TooManyRedirects — its message.
        return { kind: 'network_error', message: `Exceeded ${this.maxRedirects} redirects.` };
      }
      try {
        current = new URL(hop.location, current);
      } catch {
        return { kind: 'network_error', message: `Invalid redirect location '${hop.location}' from ${current.href}` };
      }
    }
  }

  /** One request without following redirects: the final answer, or where a redirect points. */
  private async fetchOnce(url: URL, signal: AbortSignal | undefined): Promise<HopResult> {
    if (isAborted(signal)) throw signal!.reason;
    const deadline = new AbortController();
    const timer = setTimeout(() => deadline.abort(new Error(`timed out after ${this.timeoutMs} ms`)), this.timeoutMs);
    const onAbort = (): void => deadline.abort(signal!.reason);
    signal?.addEventListener('abort', onAbort, { once: true });
    try {
      const response = await this.send(url, deadline.signal);
      const location = response.headers.location;
      if (REDIRECT_STATUSES.has(response.statusCode ?? 0) && location !== undefined) {
        response.resume();
        return { kind: 'redirect', location };
      }
      const { bytes, truncated } = await readCapped(decoded(response), this.maxBytes).finally(() => response.destroy());
      return {
        kind: 'response',
        status: response.statusCode ?? 0,
        reason: response.statusMessage ?? '',
        finalUrl: url.href,
        contentType: response.headers['content-type'],
        body: bytes,
        truncatedAt: truncated ? this.maxBytes : undefined,
      };
    } catch (error) {
      // A caller's abort is not a failure of the page: it ends the call.
      if (isAborted(signal)) throw signal!.reason;
      if (error instanceof RefusedAddressError) return { kind: 'refused', message: error.message };
      return { kind: 'network_error', message: networkErrorText(error, deadline.signal) };
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    }
  }

  /** Send the GET and wait for the response head. */
  private send(url: URL, signal: AbortSignal): Promise<IncomingMessage> {
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
    return new Promise((resolve, reject) => {
      const request = send(url, {
        method: 'GET',
        headers: BROWSER_HEADERS,
        signal,
        ...(this.lookup === undefined ? {} : { lookup: this.lookup }),
      });
      request.once('response', resolve);
      request.once('error', reject);
      request.end();
    });
  }
}

/** The body stream with its Content-Encoding undone (requests/urllib3 decode gzip, deflate and br). */
function decoded(response: IncomingMessage): Readable {
  const codings = (response.headers['content-encoding'] ?? '')
    .split(',')
    .map((c) => c.trim().toLowerCase())
    .filter((c) => c !== '' && c !== 'identity');
  let stream: Readable = response;
  // Encodings are listed in the order they were applied; undo them last first.
  for (const coding of codings.reverse()) {
    const decoder =
      coding === 'gzip' || coding === 'x-gzip'
        ? createGunzip()
        : coding === 'deflate'
          ? createInflate()
          : coding === 'br'
            ? createBrotliDecompress()
            : undefined;
    if (decoder === undefined) continue;
    const source = stream;
    source.on('error', (error) => decoder.destroy(error));
    stream = source.pipe(decoder);
  }
  return stream;
}

/** At most `cap` bytes of a stream; reading stops there and the stream is destroyed. */
async function readCapped(stream: Readable, cap: number): Promise<{ bytes: Uint8Array; truncated: boolean }> {
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    if (total + chunk.length > cap) {
      chunks.push(chunk.subarray(0, cap - total));
      stream.destroy();
      return { bytes: Buffer.concat(chunks, cap), truncated: true };
    }
    chunks.push(chunk);
    total += chunk.length;
  }
  return { bytes: Buffer.concat(chunks, total), truncated: false };
}

/** Whether the caller's signal has fired (a function, so the check is not narrowed away after an await). */
function isAborted(signal: AbortSignal | undefined): boolean {
  return signal?.aborted === true;
}
