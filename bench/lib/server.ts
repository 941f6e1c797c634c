import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export interface BenchServer {
  url: string;
  pid: number;
  child: ChildProcess;
  /** Peak resident memory (VmHWM) of the server process so far, in MB. */
  peakRssMb(): number;
  rssMb(): number;
  stop(): Promise<void>;
}

function statusField(pid: number, field: string): number {
  const m = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) / 1024 : 0;
}

/** Starts `cds serve` as a child process on a free loopback port and waits for "listening on". */
export async function startBenchServer(root: string, dataDir: string, env: Record<string, string> = {}): Promise<BenchServer> {
  const child = spawn(process.execPath, [join(root, 'bin', 'cds.js'), 'serve', '--data', dataDir, '--port', '0', '--host', '127.0.0.1'], {
    env: { ...process.env, CDS_LOG_LEVEL: 'warn', CDS_RATE_PER_MINUTE: '1000000', CDS_RATE_CONCURRENT: '1000', ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (b: Buffer) => {
      out += b.toString();
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (m) resolve(m[1]!);
    });
    child.once('exit', (code) => reject(new Error(`server exited with ${code} before listening`)));
  });
  return {
    url,
    pid: child.pid!,
    child,
    peakRssMb: () => statusField(child.pid!, 'VmHWM'),
    rssMb: () => statusField(child.pid!, 'VmRSS'),
    stop: () =>
      new Promise<void>((resolve) => {
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}
