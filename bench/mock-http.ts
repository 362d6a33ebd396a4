/**
 * The local servers of the bench scenarios: a minimal keep-alive HTTP/1.1 responder rather than
 * `node:http` (a server shares the machine's two cores with the harness it measures, and `node:http`
 * cost it about twice the CPU per request), run in a child process so its work does not count as
 * the harness's.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, type AddressInfo, type Socket } from 'node:net';

const HEADER_END = Buffer.from('\r\n\r\n', 'latin1');
const CONTENT_LENGTH = /\r\ncontent-length:[ \t]*(\d+)/i;
const LENGTH_REQUIRED = Buffer.from('HTTP/1.1 411 Length Required\r\ncontent-length: 0\r\nconnection: close\r\n\r\n', 'latin1');

/** The complete HTTP response for a JSON body (fixed length, connection kept open). */
export function httpResponse(body: string, status = '200 OK', extraHeaders = ''): Buffer {
  const bytes = Buffer.from(body, 'utf8');
  const head = `HTTP/1.1 ${status}\r\ncontent-type: application/json\r\n${extraHeaders}content-length: ${bytes.length}\r\nconnection: keep-alive\r\n\r\n`;
  return Buffer.concat([Buffer.from(head, 'latin1'), bytes]);
}

/** How a server answers one request body: a response to write, or `reset` to drop the connection. */
export type Answer = (body: Buffer) => Buffer | 'reset';

/**
 * Serve one keep-alive connection: requests with a `content-length` body (as undici sends them),
 * answered in order, after `delayMs` when given.
 */
function serveConnection(socket: Socket, answer: Answer, delayMs: number): void {
  socket.setNoDelay(true);
  socket.on('error', () => socket.destroy());
  let pending: Buffer = Buffer.alloc(0);
  socket.on('data', (chunk: Buffer) => {
    pending = pending.length === 0 ? chunk : Buffer.concat([pending, chunk]);
    for (;;) {
      const headerEnd = pending.indexOf(HEADER_END);
      if (headerEnd === -1) return;
      const length = CONTENT_LENGTH.exec(pending.toString('latin1', 0, headerEnd));
      if (length === null) {
        socket.end(LENGTH_REQUIRED);
        return;
      }
      const bodyStart = headerEnd + HEADER_END.length;
      const bodyEnd = bodyStart + Number(length[1]);
      if (pending.length < bodyEnd) return;
      const response = answer(pending.subarray(bodyStart, bodyEnd));
      if (response === 'reset') {
        socket.destroy();
        return;
      }
      pending = pending.subarray(bodyEnd);
      if (delayMs > 0) setTimeout(() => socket.write(response), delayMs);
      else socket.write(response);
    }
  });
}

/**
 * In the child process: listen on a free loopback port, print it, and stop with the parent (when
 * its pipe closes, or after 30 minutes at the most).
 */
export async function serveInChild(answer: Answer, delayMs = 0): Promise<void> {
  const server = createServer((socket) => serveConnection(socket, answer, delayMs));
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  process.stdout.write(`${(server.address() as AddressInfo).port}\n`);
  process.stdin.on('end', () => process.exit(0));
  process.stdin.resume();
  setTimeout(() => process.exit(0), 30 * 60_000).unref();
}

/** Start `script` with `args` (a module that calls `serveInChild` for them) and wait for its port. */
export async function startChildServer(script: string, args: readonly string[]): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, [script, ...args], { stdio: ['pipe', 'pipe', 'inherit'] });
  const port = await new Promise<string>((ok, fail) => {
    child.once('error', fail);
    child.stdout!.once('data', (chunk: Buffer) => ok(chunk.toString('utf8').trim()));
  });
  return { child, url: `http://127.0.0.1:${port}/v1` };
}
