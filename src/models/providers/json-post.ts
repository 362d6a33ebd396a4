/**
 * The network call of models served by an OpenAI-compatible server (`openai-compatible/<id>`, the
 * OSS handlers): a plain JSON POST over our keep-alive HTTP client, without an SDK client.
 *
 * Why not the `openai` SDK, as for OpenAI's own API: local servers (vLLM, sglang, ollama) answer in
 * milliseconds, so the harness's own cost per step is what limits a run, and the SDK's per-request
 * work (header objects built and sorted several times, debug-log details formatted even with logging
 * off, an AbortController, a web `Response`) was a third of it (measured: 185–200 → 250–265
 * multi-turn entries/s against an instant local server). The SDK added nothing else here: our
 * retry policy is in charge either way (`maxRetries: 0`), and the body is our own bytes.
 *
 * What a caller sees is what the SDK path gives: a non-2xx answer rejects with an error carrying
 * `status` and `headers` (so `Retry-After` is honoured), a timeout with a `TimeoutError`, a network
 * failure with the socket error as cause; `retry.ts` classifies all three the same way.
 */

import { combineSignals } from '../../util/abort-signals.js';
import { answerHeader, exchange, MAX_TIMER_MS, RequestTimeoutError } from './http-fetch.js';
import type { RawAnswer, RawPost } from './transport.js';

const REDIRECTS_KEEPING_POST: ReadonlySet<number> = new Set([307, 308]);
const MAX_REDIRECTS = 5;

/** Where an OpenAI-compatible server is, and how to authenticate. */
export interface JsonEndpoint {
  readonly baseURL: string;
  readonly apiKey: string;
  /** Extra headers (`OPENAI_DEFAULT_HEADERS`), sent with every request. */
  readonly defaultHeaders?: Readonly<Record<string, string>> | undefined;
}

/** A non-2xx answer; shaped like the SDKs' `APIError` where the retry policy reads it. */
export class HttpStatusError extends Error {
  constructor(
    readonly status: number,
    readonly headers: { get(name: string): string | null },
    readonly body: string,
  ) {
    super(`${status} ${errorDetail(body)}`);
    this.name = 'HttpStatusError';
  }
}

/**
 * A `RawPost` for `endpoint`. With `fetchImpl` (tests and the conformance check serve canned
 * answers through one), the request goes through it instead, body as text.
 */
export function jsonPost(endpoint: JsonEndpoint, fetchImpl?: typeof globalThis.fetch): RawPost {
  const base = endpoint.baseURL.replace(/\/+$/, '');
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    accept: 'application/json',
    authorization: `Bearer ${endpoint.apiKey}`,
    'user-agent': 'bfcl-ts',
    'accept-encoding': 'gzip, deflate',
  };
  for (const [name, value] of Object.entries(endpoint.defaultHeaders ?? {})) headers[name.toLowerCase()] = value;

  if (fetchImpl !== undefined) {
    return async (path, body, { timeoutMs, signal }) => {
      // The caller's signal or the time limit, whichever fires first.
      const timeout = new AbortController();
      const timer = timeoutMs <= MAX_TIMER_MS ? setTimeout(() => timeout.abort(new RequestTimeoutError(`Request timed out after ${timeoutMs} ms`)), timeoutMs) : undefined;
      const combined = combineSignals(signal, timeout.signal);
      try {
        const response = await fetchImpl(base + path, { method: 'POST', headers, body: body.toString('utf8'), signal: combined.signal });
        if (!response.ok) throw new HttpStatusError(response.status, response.headers, await response.text());
        return response;
      } finally {
        clearTimeout(timer);
        combined.dispose();
      }
    };
  }

  return async (path, body, { timeoutMs, signal }) => {
    let url = base + path;
    let sent: Record<string, string> = { ...headers, 'content-length': String(body.byteLength) };
    let answer = await exchange(url, { method: 'POST', headers: sent, body, signal, timeoutMs });
    // A POST is re-sent only where a redirect keeps the method (307/308), as fetch does; the key is
    // not sent to another origin.
    for (let hops = 0; REDIRECTS_KEEPING_POST.has(answer.status) && hops < MAX_REDIRECTS; hops++) {
      const location = answerHeader(answer, 'location');
      if (location === null) break;
      const next = new URL(location, url);
      if (next.origin !== new URL(url).origin) {
        const { authorization: _dropped, ...rest } = sent;
        sent = rest;
      }
      url = next.href;
      answer = await exchange(url, { method: 'POST', headers: sent, body, signal, timeoutMs });
    }
    if (answer.status < 200 || answer.status > 299) {
      const failed = answer;
      throw new HttpStatusError(failed.status, { get: (name) => answerHeader(failed, name) }, failed.body.toString('utf8'));
    }
    return new BodyText(answer.body);
  };
}

/** The body of a successful answer, read once as text. */
class BodyText implements RawAnswer {
  constructor(private readonly bytes: Buffer) {}
  async text(): Promise<string> {
    return this.bytes.toString('utf8');
  }
}

/** What the SDKs put after the status in an error message: the server's `error.message`, else the body. */
function errorDetail(body: string): string {
  if (body.trim() === '') return 'status code (no body)';
  try {
    const parsed = JSON.parse(body) as { error?: { message?: unknown } | string; message?: unknown };
    const error = parsed.error;
    if (typeof error === 'object' && error !== null && typeof error.message === 'string') return error.message;
    if (typeof error === 'string') return error;
    if (typeof parsed.message === 'string') return parsed.message;
  } catch {
    // not JSON: the text itself
  }
  return body.length <= 200 ? body : `${body.slice(0, 200)}…`;
}
