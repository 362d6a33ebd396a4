/**
 * A local HTTP server on 127.0.0.1 (random port) that speaks enough of the OpenAI Responses, chat
 * completions and raw completions protocols and of Anthropic's messages protocol for the real SDK
 * clients to talk to it. Tests script its replies (a queue, or a handler function) and read back the
 * requests it received.
 *
 * Replies can be protocol answers (see the builders below), error statuses with headers (429 with
 * `Retry-After`, 500...), raw text (an empty or cut-off JSON body), hangs (bounded: the socket is
 * dropped after `maxMs`), connection resets, and answers whose connection drops mid-body.
 * `faultStorm` makes a handler that answers with a random mix of these.
 */

import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/** A request as the server received it. */
export interface RecordedRequest {
  readonly method: string;
  /** Path with query, e.g. `/v1/chat/completions`. */
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
  /** The body exactly as received. */
  readonly bodyText: string;
  /** `JSON.parse(bodyText)`, or undefined when it is not JSON. */
  readonly json: unknown;
  /** `performance.now()` when the request was complete. */
  readonly receivedAt: number;
}

export type MockReply =
  /** `body` is sent as it is when it is a string (exact JSON text), else `JSON.stringify`-ed. */
  | { readonly kind: 'json'; readonly status?: number; readonly headers?: Record<string, string>; readonly body: unknown }
  /** Any text, e.g. a body that is not JSON. */
  | { readonly kind: 'text'; readonly status?: number; readonly headers?: Record<string, string>; readonly text: string }
  /** Never answers; the socket is dropped after `maxMs` (default 5 s) so that no test can hang forever. */
  | { readonly kind: 'hang'; readonly maxMs?: number }
  /** Drops the connection without an answer. */
  | { readonly kind: 'reset' }
  /** Announces `text` (status 200, its full content-length), sends only its first `bytes` bytes, then drops the connection. */
  | { readonly kind: 'cutoff'; readonly text: string; readonly bytes: number };

export type MockHandler = (request: RecordedRequest, index: number) => MockReply | Promise<MockReply>;

const DEFAULT_HANG_MS = 5_000;

export class MockLlmServer {
  readonly requests: RecordedRequest[] = [];
  private readonly queue: MockReply[] = [];
  private handler: MockHandler | undefined;
  private readonly sockets = new Set<Socket>();
  private readonly timers = new Set<NodeJS.Timeout>();

  private constructor(
    private readonly server: Server,
    /** `http://127.0.0.1:<port>` */
    readonly url: string,
  ) {}

  /** Starts a server on a free port of 127.0.0.1. */
  static async start(): Promise<MockLlmServer> {
    let mock: MockLlmServer | undefined;
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        void mock!.handle(req.method ?? 'GET', req.url ?? '/', req.headers, Buffer.concat(chunks).toString('utf8'), res);
      });
    });
    server.keepAliveTimeout = 1_000;
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    mock = new MockLlmServer(server, `http://127.0.0.1:${port}`);
    server.on('connection', (socket) => {
      mock!.sockets.add(socket);
      socket.on('close', () => mock!.sockets.delete(socket));
    });
    return mock;
  }

  /** Base URL for OpenAI clients (`/v1` included). */
  get openaiBaseUrl(): string {
    return `${this.url}/v1`;
  }

  /** Base URL for Anthropic clients (they add `/v1/messages`). */
  get anthropicBaseUrl(): string {
    return this.url;
  }

  /** Replies for the next requests, in order (used before the handler). */
  enqueue(...replies: MockReply[]): this {
    this.queue.push(...replies);
    return this;
  }

  /** Answers every request the queue does not cover. */
  setHandler(handler: MockHandler): this {
    this.handler = handler;
    return this;
  }

  /** The JSON bodies received, in order. */
  bodies(): unknown[] {
    return this.requests.map((r) => r.json);
  }

  async close(): Promise<void> {
    for (const timer of this.timers) clearTimeout(timer);
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private async handle(method: string, path: string, headers: IncomingHttpHeaders, bodyText: string, res: ServerResponse): Promise<void> {
    let json: unknown;
    try {
      json = bodyText === '' ? undefined : JSON.parse(bodyText);
    } catch {
      json = undefined;
    }
    const request: RecordedRequest = { method, path, headers, bodyText, json, receivedAt: performance.now() };
    if (method === 'GET' && path.endsWith('/models')) {
      send(res, { kind: 'json', body: { object: 'list', data: [{ id: 'mock-model', object: 'model' }] } });
      return;
    }
    const index = this.requests.length;
    this.requests.push(request);
    const reply =
      this.queue.shift() ??
      (this.handler !== undefined
        ? await this.handler(request, index)
        : ({ kind: 'json', status: 418, body: { error: { message: `no scripted reply for request ${index}` } } } as const));

    if (reply.kind === 'reset') {
      res.socket?.destroy();
      return;
    }
    if (reply.kind === 'cutoff') {
      const bytes = Buffer.from(reply.text, 'utf8');
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(bytes.length) });
      res.write(bytes.subarray(0, reply.bytes), () => res.socket?.destroy());
      return;
    }
    if (reply.kind === 'hang') {
      const timer = setTimeout(() => {
        this.timers.delete(timer);
        res.socket?.destroy();
      }, reply.maxMs ?? DEFAULT_HANG_MS);
      this.timers.add(timer);
      res.on('close', () => {
        clearTimeout(timer);
        this.timers.delete(timer);
      });
      return;
    }
    send(res, reply);
  }
}

function send(res: ServerResponse, reply: Extract<MockReply, { kind: 'json' | 'text' }>): void {
  const text = reply.kind === 'text' ? reply.text : typeof reply.body === 'string' ? reply.body : JSON.stringify(reply.body);
  res.writeHead(reply.status ?? 200, {
    'content-type': reply.kind === 'json' ? 'application/json' : 'text/plain',
    ...reply.headers,
  });
  res.end(text);
}

// ---------------------------------------------------------------------------------------------
// Reply builders

const usage = { input_tokens: 11, output_tokens: 7 };

/** A call the model makes: its name and its arguments as JSON text (malformed text allowed). */
export interface MockCall {
  readonly name: string;
  readonly arguments: string;
}

/** OpenAI Responses API answers. */
export const responsesReply = {
  text(text: string, options: { reasoningSummary?: string } = {}): MockReply {
    const output: unknown[] = [];
    if (options.reasoningSummary !== undefined) {
      output.push({ type: 'reasoning', id: 'rs_1', summary: [{ type: 'summary_text', text: options.reasoningSummary }] });
    }
    output.push({
      type: 'message',
      id: 'msg_1',
      status: 'completed',
      role: 'assistant',
      content: [{ type: 'output_text', text, annotations: [] }],
    });
    return { kind: 'json', body: { id: 'resp_1', object: 'response', output, usage } };
  },
  calls(calls: readonly MockCall[]): MockReply {
    const output = calls.map((call, i) => ({
      type: 'function_call',
      id: `fc_${i}`,
      call_id: `call_${i}`,
      name: call.name,
      arguments: call.arguments,
      status: 'completed',
    }));
    return { kind: 'json', body: { id: 'resp_1', object: 'response', output, usage } };
  },
};

const chatUsage = { prompt_tokens: 13, completion_tokens: 5, total_tokens: 18 };

/** OpenAI chat-completions answers. */
export const chatReply = {
  text(text: string | null, extra: Record<string, unknown> = {}): MockReply {
    return {
      kind: 'json',
      body: {
        id: 'chatcmpl-1',
        object: 'chat.completion',
        choices: [{ index: 0, message: { role: 'assistant', content: text, ...extra }, finish_reason: 'stop' }],
        usage: chatUsage,
      },
    };
  },
  calls(calls: readonly MockCall[]): MockReply {
    const toolCalls = calls.map((call, i) => ({
      id: `call_${i}`,
      type: 'function',
      function: { name: call.name, arguments: call.arguments },
    }));
    return chatReply.text(null, { tool_calls: toolCalls });
  },
};

/** Raw completions answers (the OSS path). */
export const completionsReply = {
  text(text: string): MockReply {
    return {
      kind: 'json',
      body: { id: 'cmpl-1', object: 'text_completion', choices: [{ index: 0, text, finish_reason: 'stop' }], usage: chatUsage },
    };
  },
};

const anthropicUsage = { input_tokens: 17, output_tokens: 9 };

/** Anthropic messages answers. */
export const anthropicReply = {
  text(...texts: string[]): MockReply {
    return {
      kind: 'json',
      body: {
        id: 'msg_1',
        type: 'message',
        role: 'assistant',
        content: texts.map((text) => ({ type: 'text', text })),
        stop_reason: 'end_turn',
        usage: anthropicUsage,
      },
    };
  },
  /** Tool uses with their `input` objects as JSON text (to keep `5.0` or big integers exact). */
  toolUses(uses: readonly { name: string; inputJson: string }[], leadingText?: string): MockReply {
    const blocks = uses.map((use, i) => `{"type":"tool_use","id":"toolu_${i}","name":${JSON.stringify(use.name)},"input":${use.inputJson}}`);
    if (leadingText !== undefined) blocks.unshift(JSON.stringify({ type: 'text', text: leadingText }));
    return {
      kind: 'json',
      body: `{"id":"msg_1","type":"message","role":"assistant","content":[${blocks.join(',')}],"stop_reason":"tool_use","usage":${JSON.stringify(anthropicUsage)}}`,
    };
  },
};

/** Error answers. */
export const errorReply = {
  status(status: number, headers: Record<string, string> = {}): MockReply {
    return { kind: 'json', status, headers, body: { error: { message: `mock error ${status}`, type: 'mock_error' } } };
  },
  rateLimited(retryAfter: string): MockReply {
    return errorReply.status(429, { 'retry-after': retryAfter });
  },
};

/** Answers a 200 that cannot be used: its JSON cut short, an empty body, or `choices: []`. */
export const malformedReply = {
  cutJson(): MockReply {
    return { kind: 'text', status: 200, headers: { 'content-type': 'application/json' }, text: '{"id": "chatcmpl-1", "choices": [{"index": 0, "mess' };
  },
  empty(): MockReply {
    return { kind: 'text', status: 200, headers: { 'content-type': 'application/json' }, text: '' };
  },
  noChoices(): MockReply {
    return { kind: 'json', body: { id: 'chatcmpl-1', object: 'chat.completion', choices: [], usage: chatUsage } };
  },
};

/** How often each fault happens in a `faultStorm`, as fractions of the requests. */
export interface FaultMix {
  /** 429 with `Retry-After: <retryAfter>`. */
  readonly rateLimited?: number;
  readonly serverError?: number;
  readonly reset?: number;
  readonly malformed?: number;
  /** The `Retry-After` value of the 429s (default `0`). */
  readonly retryAfter?: string;
}

/**
 * A handler that answers each request with a fault of `mix` at random (`random` injectable for
 * repeatable runs), else with `answer(request)`. Counts what it sent.
 */
export function faultStorm(
  mix: FaultMix,
  answer: MockHandler,
  random: () => number = Math.random,
): { handler: MockHandler; sent: Record<'ok' | 'rateLimited' | 'serverError' | 'reset' | 'malformed', number> } {
  const sent = { ok: 0, rateLimited: 0, serverError: 0, reset: 0, malformed: 0 };
  const handler: MockHandler = (request, index) => {
    let draw = random();
    const pick = (fraction: number | undefined): boolean => {
      draw -= fraction ?? 0;
      return draw < 0;
    };
    if (pick(mix.rateLimited)) {
      sent.rateLimited++;
      return errorReply.rateLimited(mix.retryAfter ?? '0');
    }
    if (pick(mix.serverError)) {
      sent.serverError++;
      return errorReply.status(500);
    }
    if (pick(mix.reset)) {
      sent.reset++;
      return { kind: 'reset' };
    }
    if (pick(mix.malformed)) {
      sent.malformed++;
      return malformedReply.cutJson();
    }
    sent.ok++;
    return answer(request, index);
  };
  return { handler, sent };
}
