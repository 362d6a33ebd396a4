/**
 * Test helper: the built `bfcl` binary (`dist/bin/bfcl.cjs`, the bundle that package.json's `bin`
 * names). CI builds it in `npm ci`; locally it is
 * rebuilt first when a source file is newer than the build.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const PACKAGE_ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const CLI = join(PACKAGE_ROOT, 'dist', 'bin', 'bfcl.cjs');

function newestSourceTime(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestSourceTime(path));
    else if (entry.name.endsWith('.ts')) newest = Math.max(newest, statSync(path).mtimeMs);
  }
  return newest;
}

/** Build unless the binary is newer than every source file. */
export function ensureBuilt(): void {
  if (existsSync(CLI) && statSync(CLI).mtimeMs >= newestSourceTime(join(PACKAGE_ROOT, 'src'))) return;
  const bin = (pkg: string, file: string): string => join(PACKAGE_ROOT, 'node_modules', pkg, 'bin', file);
  try {
    execFileSync(process.execPath, [bin('typescript', 'tsc'), '-p', 'tsconfig.json'], { cwd: PACKAGE_ROOT, stdio: 'pipe' });
  } catch {
    // Type errors elsewhere still emit JavaScript; the tests below fail clearly if the binary is missing.
  }
  // The bundle step of `npm run build`.
  execFileSync(process.execPath, [join(PACKAGE_ROOT, 'scripts', 'bundle.mjs')], { cwd: PACKAGE_ROOT, stdio: 'pipe' });
}

export interface CliRun {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Start the binary; `done` resolves when it exits. */
export function startCli(args: readonly string[], cwd: string, env: Record<string, string> = {}): { child: ChildProcess; done: Promise<CliRun> } {
  const child = spawn(process.execPath, [CLI, ...args], {
    cwd,
    env: { PATH: process.env['PATH'] ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (chunk: Buffer) => void (stdout += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => void (stderr += chunk.toString()));
  const done = new Promise<CliRun>((resolve) => {
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
  return { child, done };
}

/** Run the binary to its end. */
export function runBuiltCli(args: readonly string[], cwd: string, env: Record<string, string> = {}): Promise<CliRun> {
  return startCli(args, cwd, env).done;
}
