import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { repoRoot } from './paths.js';

export interface ChildServer {
  url: string;
  child: ChildProcess;
  kill(signal?: NodeJS.Signals): Promise<void>;
}

/** Runs `cds <args>` as a child process of the build under test (CDS_DIST or dist). */
export function cds(args: string[], env: Record<string, string> = {}): ChildProcess {
  return spawn(process.execPath, [join(repoRoot(), 'bin', 'cds.js'), ...args], {
    env: { ...process.env, CDS_LOG_LEVEL: 'warn', CDS_CHECK_CONTRACTS: '1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

/** Runs `cds <args>` to its end: the exit code and what it printed. */
export function runCds(args: string[]): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((resolve) => {
    const child = cds(args);
    let out = '';
    let err = '';
    child.stdout!.on('data', (b: Buffer) => (out += b.toString()));
    child.stderr!.on('data', (b: Buffer) => (err += b.toString()));
    child.on('exit', (code) => resolve({ code, out, err }));
  });
}

/** `cds serve` on a free port; resolves once it prints "listening on". */
export async function startChildServer(dataDir: string, env: Record<string, string> = {}): Promise<ChildServer> {
  const child = cds(['serve', '--data', dataDir, '--port', '0'], env);
  let err = '';
  child.stderr!.on('data', (b: Buffer) => (err += b.toString()));
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (b: Buffer) => {
      out += b.toString();
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (m) resolve(m[1]!);
    });
    child.once('exit', (code) => reject(new Error(`server exited (${code}) before listening: ${err.slice(0, 500)}`)));
  });
  return {
    url,
    child,
    kill: (signal = 'SIGKILL') =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill(signal);
      }),
  };
}
