import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { httpFetch } from '../../../src/models/providers/http-fetch.js';

interface Seen {
  readonly method: string;
  readonly url: string;
  readonly headers: IncomingMessage['headers'];
  readonly body: string;
}

let server: Server;
let base = '';
const seen: Seen[] = [];

/** Routes of the test server, by path. */
const ROUTES: Record<string, (res: ServerResponse) => void> = {
  '/echo': (res) => {
    res.writeHead(201, 'Made', { 'content-type': 'application/json', 'x-extra': 'a' });
    res.end('{"ok":true,"text":"é"}');
  },
  '/gzip': (res) => {
    res.writeHead(200, { 'content-encoding': 'gzip' });
    res.end(gzipSync('{"zipped":1}'));
  },
  '/empty': (res) => {
    res.writeHead(204);
    res.end();
  },
  '/slow': (res) => {
    setTimeout(() => res.end('late'), 2_000).unref();
  },
  '/moved': (res) => {
    res.writeHead(307, { location: '/echo' });
    res.end();
  },
};

beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      ROUTES[req.url ?? '']!(res);
    });
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((ok) => server.close(ok));
});

describe('httpFetch', () => {
  it('sends the body and headers as given, plus the defaults of the built-in fetch, and answers a standard Response', async () => {
    const body = '{"q":"ü"}';
    const response = await httpFetch(`${base}/echo`, {
      method: 'post',
      body,
      headers: new Headers({ 'Content-Type': 'application/json', Authorization: 'Bearer k' }),
    });
    expect(response).toBeInstanceOf(Response);
    expect(response.status).toBe(201);
    expect(response.statusText).toBe('Made');
    expect(response.ok).toBe(true);
    expect(response.headers.get('x-extra')).toBe('a');
    expect(await response.text()).toBe('{"ok":true,"text":"é"}');
    const request = seen.at(-1)!;
    expect(request).toMatchObject({ method: 'POST', url: '/echo', body });
    expect(request.headers).toMatchObject({
      'content-type': 'application/json',
      authorization: 'Bearer k',
      'content-length': String(Buffer.byteLength(body)),
      'accept-encoding': 'gzip, deflate',
      'accept-language': '*',
      'sec-fetch-mode': 'cors',
      connection: 'keep-alive',
    });
  });

  it('answers with a Response that reads like an ordinary one (once, as text, JSON, bytes or stream)', async () => {
    const post = (): Promise<Response> => httpFetch(`${base}/echo`, { method: 'POST', body: '{}' });
    const expected = '{"ok":true,"text":"é"}';
    const first = await post();
    expect(first.bodyUsed).toBe(false);
    const copy = first.clone();
    expect(await first.text()).toBe(expected);
    expect(first.bodyUsed).toBe(true);
    await expect(first.text()).rejects.toThrow(TypeError);
    expect(() => first.clone()).toThrow(TypeError);
    expect(await copy.json()).toEqual({ ok: true, text: 'é' });
    expect(new TextDecoder().decode(await (await post()).arrayBuffer())).toBe(expected);
    expect(await new Response((await post()).body).text()).toBe(expected);
    const viaBlob = await post();
    expect(await (await viaBlob.blob()).text()).toBe(expected);
    expect(viaBlob.bodyUsed).toBe(true);
  });

  it('decodes a gzip answer', async () => {
    expect(await (await httpFetch(`${base}/gzip`, { method: 'POST', body: '{}' })).text()).toBe('{"zipped":1}');
  });

  it('gives a 204 answer a null body', async () => {
    const response = await httpFetch(`${base}/empty`, { method: 'POST', body: new Uint8Array([123, 125]) });
    expect(response.status).toBe(204);
    expect(response.body).toBeNull();
    expect(seen.at(-1)!.body).toBe('{}');
  });

  it('follows a redirect through the built-in fetch', async () => {
    const response = await httpFetch(`${base}/moved`, { method: 'POST', body: 'x' });
    expect(response.status).toBe(201);
    expect(seen.at(-1)!).toMatchObject({ url: '/echo', body: 'x' });
  });

  it('rejects an aborted request with an AbortError', async () => {
    const controller = new AbortController();
    const pending = httpFetch(`${base}/slow`, { method: 'POST', body: '{}', signal: controller.signal });
    setTimeout(() => controller.abort(), 20);
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
    const already = new AbortController();
    already.abort();
    await expect(httpFetch(`${base}/echo`, { signal: already.signal })).rejects.toMatchObject({ name: 'AbortError' });
  });

  it('rejects a network failure as the built-in fetch does: TypeError with the socket error as cause', async () => {
    const closed = createServer();
    await new Promise<void>((ok) => closed.listen(0, '127.0.0.1', ok));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((ok) => closed.close(ok));
    const failure = await httpFetch(`http://127.0.0.1:${port}/`, { method: 'POST', body: '{}' }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(TypeError);
    expect(failure).toMatchObject({ message: 'fetch failed', cause: { code: 'ECONNREFUSED' } });
  });
});
