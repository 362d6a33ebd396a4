/**
 * The `fetch` our SDK clients use: a plain `node:http`/`node:https` request over keep-alive agents,
 * answered with a standard `Response`. Node's built-in fetch (undici) builds several web streams,
 * abort signals and header lists per request; for the small JSON exchanges of a generation run that
 * cost about three times the whole HTTP exchange (measured: ~470 vs ~150 µs CPU per request on
 * loopback). The SDK stays in charge of everything above the socket (headers, auth, timeouts,
 * errors); only the transport under it changes.
 *
 * Requests look to the server as undici's do: the same default headers are added when absent, and
 * compressed answers are decoded. Anything this fetch does not handle (a `Request` object, a
 * streamed body, a redirect) is passed to the built-in fetch unchanged.
 *
 * `exchange`, the request under it, also carries the plain JSON client of OpenAI-compatible
 * servers (json-post.ts), which needs no `Response` at all.
 */

import { Agent as HttpAgent, request as httpRequest, type IncomingMessage, type OutgoingHttpHeaders } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { urlToHttpOptions } from 'node:url';
import { brotliDecompress, unzip } from 'node:zlib';
import { promisify } from 'node:util';

type FetchInput = Parameters<typeof globalThis.fetch>[0];
type FetchInit = NonNullable<Parameters<typeof globalThis.fetch>[1]>;

// One pool per protocol for the whole process, as undici's global dispatcher; idle sockets do not
// keep the process alive (the agent unrefs them).
const HTTP_AGENT = new HttpAgent({ keepAlive: true });
const HTTPS_AGENT = new HttpsAgent({ keepAlive: true });

/** Statuses whose response has no body (a `Response` with one would throw). */
const NULL_BODY_STATUSES: ReadonlySet<number> = new Set([101, 204, 205, 304]);
const REDIRECT_STATUSES: ReadonlySet<number> = new Set([301, 302, 303, 307, 308]);

/** `http.request` options of the URLs seen (the SDK posts to a handful), so each is parsed once. */
const targets = new Map<string, ReturnType<typeof urlToHttpOptions>>();
const MAX_TARGETS = 256;

function targetOf(url: string): ReturnType<typeof urlToHttpOptions> {
  let target = targets.get(url);
  if (target === undefined) {
    if (targets.size >= MAX_TARGETS) targets.clear();
    target = urlToHttpOptions(new URL(url));
    targets.set(url, target);
  }
  return target;
}

const unzipAsync = promisify(unzip);
const brotliAsync = promisify(brotliDecompress);

/** A `fetch` for the SDK clients; see the module comment. */
export async function httpFetch(input: FetchInput, init: FetchInit = {}): Promise<Response> {
  const url = typeof input === 'string' ? input : input instanceof URL ? input.href : undefined;
  const body = plainBody(init.body);
  if (url === undefined || body === undefined || !/^https?:/i.test(url)) return globalThis.fetch(input, init);
  const https = isHttps(url);
  const method = (init.method ?? 'GET').toUpperCase();
  const answer = await exchange(url, { method, headers: requestHeaders(init.headers, body, https), body, signal: init.signal ?? undefined });
  if (REDIRECT_STATUSES.has(answer.status) && answerHeader(answer, 'location') !== null) {
    // Redirects are rare for API calls; the built-in fetch follows them as the SDK expects.
    return globalThis.fetch(input, init);
  }
  return toResponse(answer);
}

/**
 * The request body as bytes; undefined for bodies only the built-in fetch can send (streams, forms).
 * Text is encoded here once: its length and the socket write then need no further pass over it.
 */
function plainBody(body: FetchInit['body']): Uint8Array | null | undefined {
  if (body === undefined || body === null) return null;
  if (typeof body === 'string') return Buffer.from(body, 'utf8');
  if (body instanceof Uint8Array) return body;
  if (body instanceof ArrayBuffer) return new Uint8Array(body);
  return undefined;
}

/** A finished HTTP exchange: status line, raw header pairs and the decoded body. */
export interface Answer {
  readonly status: number;
  readonly statusText: string;
  readonly headers: [string, string][];
  readonly body: Buffer;
}

/** A header of an answer by case-insensitive name, repeated values joined as `Headers.get` does; null when absent. */
export function answerHeader(answer: Answer, name: string): string | null {
  const wanted = name.toLowerCase();
  const values = answer.headers.filter(([key]) => key.toLowerCase() === wanted).map(([, value]) => value);
  return values.length === 0 ? null : values.join(', ');
}

/** One request of `exchange`: the headers go out as given (with `content-length` set by the caller). */
export interface ExchangeRequest {
  readonly method: string;
  readonly headers: OutgoingHttpHeaders;
  readonly body: Uint8Array | null;
  readonly signal?: AbortSignal | undefined;
  /** The whole exchange's time limit; past it the request is dropped and rejects with a `TimeoutError`. */
  readonly timeoutMs?: number | undefined;
}

/** A request that took longer than its time limit (classified as retriable, as the SDKs' timeouts). */
export class RequestTimeoutError extends Error {
  override readonly name = 'TimeoutError';
}

/** The longest delay a Node timer holds (a longer one fires at once). */
export const MAX_TIMER_MS = 2 ** 31 - 1;

/** `https:` (either case) rather than `http:`. */
function isHttps(url: string): boolean {
  return url.charCodeAt(4) === 115 || url.charCodeAt(4) === 83;
}

/**
 * One HTTP exchange over the keep-alive pools, its body read in full: what both `httpFetch` and
 * the plain JSON client (`json-post.ts`) send through. Network failures reject with a TypeError
 * whose cause is the socket error, as the built-in fetch's do.
 */
export function exchange(url: string, request: ExchangeRequest): Promise<Answer> {
  const { signal, timeoutMs } = request;
  return new Promise<Answer>((resolve, reject) => {
    if (signal?.aborted === true) {
      reject(abortReason(signal));
      return;
    }
    const https = isHttps(url);
    const send = https ? httpsRequest : httpRequest;
    const outgoing = send({
      ...targetOf(url),
      method: request.method,
      headers: request.headers,
      agent: https ? HTTPS_AGENT : HTTP_AGENT,
    });
    let settled = false;
    let timer: NodeJS.Timeout | undefined;
    const finish = (error: unknown, answer?: Answer): void => {
      if (settled) return;
      settled = true;
      if (timer !== undefined) clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      if (answer !== undefined) resolve(answer);
      else reject(error);
    };
    const onAbort = (): void => {
      outgoing.destroy();
      finish(abortReason(signal!));
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    // Node's timers hold at most 2^31 - 1 ms (a longer delay would fire at once): beyond it, no limit.
    if (timeoutMs !== undefined && timeoutMs <= MAX_TIMER_MS) {
      timer = setTimeout(() => {
        outgoing.destroy();
        finish(new RequestTimeoutError(`Request timed out after ${timeoutMs} ms`));
      }, timeoutMs);
    }
    outgoing.on('error', (error) => finish(new TypeError('fetch failed', { cause: error })));
    outgoing.on('response', (response) => {
      readAnswer(response).then(
        (answer) => finish(undefined, answer),
        (error: unknown) => finish(new TypeError('fetch failed', { cause: error })),
      );
    });
    outgoing.end(request.body ?? undefined);
  });
}

/**
 * The SDK's headers plus the defaults undici adds when absent (so servers see the same request),
 * with the body's length.
 */
function requestHeaders(headers: FetchInit['headers'], body: Uint8Array | null, https: boolean): OutgoingHttpHeaders {
  const out: OutgoingHttpHeaders = {};
  // The SDK passes a `Headers`; read it as it is rather than copying it into another.
  (headers instanceof Headers ? headers : new Headers(headers)).forEach((value, name) => {
    out[name] = value;
  });
  out['accept'] ??= '*/*';
  out['accept-language'] ??= '*';
  out['sec-fetch-mode'] ??= 'cors';
  out['user-agent'] ??= 'node';
  out['accept-encoding'] ??= https ? 'br, gzip, deflate' : 'gzip, deflate';
  if (body !== null) out['content-length'] = body.byteLength;
  return out;
}

function readAnswer(response: IncomingMessage): Promise<Answer> {
  return new Promise<Answer>((resolve, reject) => {
    const chunks: Buffer[] = [];
    response.on('data', (chunk: Buffer) => chunks.push(chunk));
    response.on('error', reject);
    response.on('end', () => {
      const raw = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks);
      decodeContent(raw, response.headers['content-encoding']).then(
        (body) => resolve({ status: response.statusCode ?? 0, statusText: response.statusMessage ?? '', headers: headerPairs(response), body }),
        reject,
      );
    });
  });
}

/** The response headers as sent (repeated names kept). */
function headerPairs(response: IncomingMessage): [string, string][] {
  const pairs: [string, string][] = [];
  const raw = response.rawHeaders;
  for (let i = 0; i + 1 < raw.length; i += 2) pairs.push([raw[i]!, raw[i + 1]!]);
  return pairs;
}

/** Undoes `Content-Encoding` (gzip, deflate, br; applied codings are undone last first), as undici does. */
async function decodeContent(body: Buffer, encoding: string | undefined): Promise<Buffer> {
  if (encoding === undefined || body.length === 0) return body;
  const codings = encoding.toLowerCase().split(',').map((coding) => coding.trim()).reverse();
  let decoded = body;
  for (const coding of codings) {
    if (coding === 'gzip' || coding === 'x-gzip' || coding === 'deflate') decoded = await unzipAsync(decoded);
    else if (coding === 'br') decoded = await brotliAsync(decoded);
    else if (coding !== 'identity') return body; // an unknown coding: the body is passed on as it came
  }
  return decoded;
}

function toResponse(answer: Answer): Response {
  const init: ResponseInit = { status: answer.status, statusText: answer.statusText, headers: answer.headers };
  try {
    // Socket and zlib buffers are backed by plain ArrayBuffers (never shared ones).
    return NULL_BODY_STATUSES.has(answer.status) ? new Response(null, init) : new BufferedResponse(answer.body as Buffer<ArrayBuffer>, init);
  } catch (error) {
    // e.g. a status outside 200–599, which fetch cannot represent either.
    throw new TypeError('fetch failed', { cause: error });
  }
}

/**
 * A `Response` whose body is already in memory. `text()`, `json()` and `arrayBuffer()` read the
 * bytes directly: an ordinary `Response` wraps them in a web stream (and reads them back through
 * it), which cost more than the rest of the exchange. Whatever needs the stream (`body`, `blob()`,
 * `formData()`) gets an ordinary `Response` of the same bytes, built on first use.
 */
class BufferedResponse extends Response {
  readonly #bytes: Buffer<ArrayBuffer>;
  readonly #init: ResponseInit;
  #ordinary: Response | undefined;
  #used = false;

  constructor(bytes: Buffer<ArrayBuffer>, init: ResponseInit) {
    super(null, init);
    this.#bytes = bytes;
    this.#init = init;
  }

  static {
    // Response declares its body members as properties, so TypeScript cannot override them as
    // methods; they are replaced on the prototype instead (once, not per response).
    Object.defineProperties(BufferedResponse.prototype, {
      body: {
        get(this: BufferedResponse): ReadableStream | null {
          return this.#stream().body;
        },
      },
      bodyUsed: {
        get(this: BufferedResponse): boolean {
          return this.#used || (this.#ordinary?.bodyUsed ?? false);
        },
      },
      text: {
        async value(this: BufferedResponse): Promise<string> {
          return this.#ordinary === undefined ? this.#take().toString('utf8') : this.#ordinary.text();
        },
      },
      json: {
        async value(this: BufferedResponse): Promise<unknown> {
          return JSON.parse(await this.text()) as unknown;
        },
      },
      arrayBuffer: {
        async value(this: BufferedResponse): Promise<ArrayBuffer> {
          if (this.#ordinary !== undefined) return this.#ordinary.arrayBuffer();
          const bytes = this.#take();
          return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
        },
      },
      blob: {
        value(this: BufferedResponse): Promise<Blob> {
          return this.#stream().blob();
        },
      },
      formData: {
        value(this: BufferedResponse): Promise<FormData> {
          return this.#stream().formData();
        },
      },
      clone: {
        value(this: BufferedResponse): Response {
          if (this.bodyUsed) throw new TypeError('Response.clone: Body has already been consumed.');
          return new BufferedResponse(this.#bytes, this.#init);
        },
      },
    });
  }

  /** The bytes, once: a body can be read only once. */
  #take(): Buffer<ArrayBuffer> {
    if (this.#used) throw new TypeError('Body is unusable: Body has already been read');
    this.#used = true;
    return this.#bytes;
  }

  /** The ordinary `Response` behind the stream-based members (empty once the bytes were read). */
  #stream(): Response {
    this.#ordinary ??= new Response(this.#used ? null : this.#bytes, this.#init);
    return this.#ordinary;
  }
}

/** What an aborted fetch rejects with: the signal's reason, else an `AbortError`. */
function abortReason(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException('This operation was aborted', 'AbortError');
}
