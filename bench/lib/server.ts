import type { ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { startChildServer } from '../../test/helpers/child-server.js';

export interface BenchServer {
  url: string;
  pid: number;
  child: ChildProcess;
  /** Peak resident memory (VmHWM) of the server process so far, in MB. */
  peakRssMb(): number;
  rssMb(): number;
  /** CPU seconds (user + system, all threads) the server process has used so far. */
  cpuSeconds(): number;
  stop(): Promise<void>;
}

function statusField(pid: number, field: string): number {
  const m = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) / 1024 : 0;
}

/** utime + stime of /proc/<pid>/stat (fields 14 and 15, in clock ticks of 1/100 s on Linux). */
export function cpuSecondsOf(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // The command name (field 2) may hold spaces: count fields after its closing parenthesis.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/** The service's query and totals caches off (the benches' `--cold`): every call plans its filter and counts again. */
export const COLD_CACHES_ENV: Readonly<Record<string, string>> = {
  CDS_QUERY_CACHE_MB: '0',
  CDS_SEARCH_TOTALS_CACHE: '0',
};

/** Starts `cds serve` (the test helper's child server) with the bench's relaxed limits, and reads its memory. */
export async function startBenchServer(dataDir: string, env: Record<string, string> = {}): Promise<BenchServer> {
  const { url, child } = await startChildServer(dataDir, {
    CDS_RATE_PER_MINUTE: '1000000',
    CDS_RATE_CONCURRENT: '1000',
    CDS_CHECK_CONTRACTS: '0',
    ...env,
  });
  return {
    url,
    pid: child.pid!,
    child,
    peakRssMb: () => statusField(child.pid!, 'VmHWM'),
    rssMb: () => statusField(child.pid!, 'VmRSS'),
    cpuSeconds: () => cpuSecondsOf(child.pid!),
    stop: () =>
      new Promise<void>((resolve) => {
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}
