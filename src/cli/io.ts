/** What the CLI reads from and writes to, injectable so tests can run it in-process. */
export interface CliIo {
  /** Write to standard output (text is written as given; include the newline). */
  readonly stdout: (text: string) => void;
  /** Write to standard error. */
  readonly stderr: (text: string) => void;
  /** Environment variables (`BFCL_DATA_DIR`, `BFCL_PROJECT_ROOT`, provider keys...). */
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Directory that relative paths are resolved against when no project root is set. */
  readonly cwd: string;
}

/** The real process streams and environment. */
export function processIo(): CliIo {
  return {
    stdout: tolerantWriter(process.stdout),
    stderr: tolerantWriter(process.stderr),
    env: process.env,
    cwd: process.cwd(),
  };
}

/** Streams whose reader went away (EPIPE and the like); writes to them are dropped. */
const closedStreams = new WeakSet<NodeJS.WriteStream>();
const watchedStreams = new WeakSet<NodeJS.WriteStream>();

/**
 * Writes to `stream` as long as someone reads it. When the reader goes away (`bfcl generate ... | head`,
 * a closed terminal), node reports EPIPE as an 'error' event, which with no listener ends the
 * process: a long run would die with nothing said. The error is taken as "stop writing here".
 */
function tolerantWriter(stream: NodeJS.WriteStream): (text: string) => void {
  if (!watchedStreams.has(stream)) {
    watchedStreams.add(stream);
    stream.on('error', () => closedStreams.add(stream));
  }
  return (text) => {
    if (closedStreams.has(stream) || stream.destroyed) return;
    stream.write(text);
  };
}

/** Whether `stream` has no output waiting (or can take none any more: its reader is gone). */
export function isDrained(stream: NodeJS.WriteStream): boolean {
  return stream.writableLength === 0 || closedStreams.has(stream) || stream.destroyed;
}
