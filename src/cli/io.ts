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
    stdout: (text) => void process.stdout.write(text),
    stderr: (text) => void process.stderr.write(text),
    env: process.env,
    cwd: process.cwd(),
  };
}
