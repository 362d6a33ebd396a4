import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';

import { OpenAiCompatibleEmbedder } from '../../../src/agentic/memory/openai-compatible-embedder.js';
import { ProviderError } from '../../../src/util/errors.js';

interface Received {
  readonly url: string;
  readonly authorization: string | undefined;
  readonly body: { model: string; input: string[]; encoding_format: string };
}

/** A loopback server speaking /v1/embeddings; `reply` decides each answer. */
let server: Server;
let baseUrl: string;
let received: Received[] = [];
let reply: (body: Received['body'], res: ServerResponse) => void;

/** [len, 1, 0] per input: not normalised, so the client's normalisation shows. */
const lengthVectors = (input: string[]) => input.map((text, index) => ({ object: 'embedding', index, embedding: [text.length, 1, 0] }));

beforeAll(async () => {
  server = createServer((req: IncomingMessage, res: ServerResponse) => {
    let text = '';
    req.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
    req.on('end', () => {
      const body = JSON.parse(text) as Received['body'];
      received.push({ url: req.url ?? '', authorization: req.headers.authorization, body });
      reply(body, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});

afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

beforeEach(() => {
  received = [];
  reply = (body, res) => {
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ object: 'list', model: body.model, data: lengthVectors(body.input) }));
  };
});

describe('OpenAiCompatibleEmbedder', () => {
  it('posts {model, input, encoding_format} to <base>/embeddings in batches, and normalises the vectors', async () => {
    const embedder = new OpenAiCompatibleEmbedder({ baseUrl: `${baseUrl}/`, model: 'all-MiniLM-L6-v2', apiKey: 'k1', batchSize: 2 });
    const vectors = await embedder.embed(['abc', 'de', 'f']);
    expect(received.map((r) => [r.url, r.authorization, r.body])).toEqual([
      ['/v1/embeddings', 'Bearer k1', { model: 'all-MiniLM-L6-v2', input: ['abc', 'de'], encoding_format: 'float' }],
      ['/v1/embeddings', 'Bearer k1', { model: 'all-MiniLM-L6-v2', input: ['f'], encoding_format: 'float' }],
    ]);
    const norm3 = Math.hypot(3, 1);
    expect(vectors.map((v) => [...v])).toEqual([
      [Math.fround(3 / norm3), Math.fround(1 / norm3), 0],
      [Math.fround(2 / Math.hypot(2, 1)), Math.fround(1 / Math.hypot(2, 1)), 0],
      [Math.fround(1 / Math.SQRT2), Math.fround(1 / Math.SQRT2), 0],
    ]);
  });

  it('sends no Authorization header without a key, and puts answers back in input order by index', async () => {
    reply = (body, res) => res.end(JSON.stringify({ data: lengthVectors(body.input).reverse() }));
    const vectors = await new OpenAiCompatibleEmbedder({ baseUrl, model: 'm' }).embed(['a', 'bbb']);
    expect(received[0]!.authorization).toBeUndefined();
    expect(vectors[1]![0]).toBeGreaterThan(vectors[0]![0]!);
  });

  it('makes no request for no texts', async () => {
    expect(await new OpenAiCompatibleEmbedder({ baseUrl, model: 'm' }).embed([])).toEqual([]);
    expect(received).toEqual([]);
  });

  it.each([
    [
      'an HTTP error',
      (res: ServerResponse) => {
        res.statusCode = 503;
        res.end('model loading');
      },
      /failed: HTTP 503 Service Unavailable: model loading$/,
      { status: 503, retriable: true },
    ],
    [
      'a client error',
      (res: ServerResponse) => {
        res.statusCode = 400;
        res.end('{"error": "bad model"}');
      },
      /HTTP 400 Bad Request: \{"error": "bad model"\}/,
      { status: 400, retriable: false },
    ],
    ['a non-JSON body', (res: ServerResponse) => res.end('<html>'), /is not JSON: <html>/, { status: 200 }],
    [
      'a body of another shape',
      (res: ServerResponse) => res.end('{"data": [{"vector": [1]}]}'),
      /is not an OpenAI embeddings response \(data\.0\.embedding: .*\): \{"data"/,
      { status: 200 },
    ],
    [
      'a wrong number of embeddings',
      (res: ServerResponse) => res.end('{"data": [{"embedding": [1, 0]}]}'),
      /has 1 embeddings for 2 inputs/,
      { status: 200 },
    ],
    [
      'indexes out of range',
      (res: ServerResponse) => res.end('{"data": [{"embedding": [1, 0], "index": 0}, {"embedding": [1, 0], "index": 5}]}'),
      /has indexes other than 0\.\.1/,
      { status: 200 },
    ],
  ])('reports %s as a ProviderError naming the URL', async (_what, respond, message, details) => {
    reply = (_body, res) => respond(res);
    const error = await new OpenAiCompatibleEmbedder({ baseUrl, model: 'm' }).embed(['a', 'b']).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProviderError);
    expect((error as ProviderError).message).toContain(`${baseUrl}/embeddings`);
    expect((error as ProviderError).message).toMatch(message);
    expect(error).toMatchObject(details);
  });

  it('reports an unreachable server', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const error = await new OpenAiCompatibleEmbedder({ baseUrl: `http://127.0.0.1:${port}/v1`, model: 'm' }).embed(['a']).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({ serverUnreachable: true, retriable: true });
    expect((error as Error).message).toMatch(new RegExp(`^Embeddings request to http://127\\.0\\.0\\.1:${port}/v1/embeddings failed: .*ECONNREFUSED`));
  });

  it('refuses a base URL that is not a URL', () => {
    expect(() => new OpenAiCompatibleEmbedder({ baseUrl: 'localhost:8080', model: 'm' })).toThrow('Invalid embeddings base URL: "localhost:8080"');
  });

  it('uses an injected fetch', async () => {
    const seen: string[] = [];
    const fakeFetch: typeof fetch = (input) => {
      seen.push(String(input));
      return Promise.resolve(new Response('{"data": [{"embedding": [0, 2]}]}', { status: 200 }));
    };
    const [vector] = await new OpenAiCompatibleEmbedder({ baseUrl: 'http://embeddings.test/v1', model: 'm', fetch: fakeFetch }).embed(['x']);
    expect(seen).toEqual(['http://embeddings.test/v1/embeddings']);
    expect([...vector!]).toEqual([0, 1]);
  });
});
