/**
 * Loaded into a server process through NODE_OPTIONS (serverTimingEnv): times every HTTP request inside the process,
 * from Node's request event to the return of `res.end`, which has handed the whole answer to the socket. That is
 * what a request costs its server, apart from the client, the kernel's transfer and the wait to be scheduled. When
 * the process exits, the durations (ms, in the order the requests came) are written as a JSON array to
 * `<prefix>-<pid>.json` (serverTimings reads it); worker threads and child processes, which inherit the setting,
 * write nothing or a file of their own.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { fileURLToPath } from 'node:url';
import { isMainThread } from 'node:worker_threads';

const PREFIX_ENV = 'CDS_BENCH_SERVER_TIMING';

/** The environment that loads this module into a child process, its file named by `prefix` and the child's pid. */
export function serverTimingEnv(prefix: string): Record<string, string> {
  const options = [process.env.NODE_OPTIONS, `--import=${fileURLToPath(import.meta.url)}`].filter(Boolean);
  return { NODE_OPTIONS: options.join(' '), [PREFIX_ENV]: prefix };
}

/** The durations a process with that environment recorded (read after it exited). */
export function serverTimings(prefix: string, pid: number): number[] {
  return JSON.parse(readFileSync(`${prefix}-${pid}.json`, 'utf8')) as number[];
}

const prefix = process.env[PREFIX_ENV];
if (prefix && isMainThread) {
  const file = `${prefix}-${process.pid}.json`;
  const durations: number[] = [];
  const emit = http.Server.prototype.emit;
  http.Server.prototype.emit = function (this: http.Server, event: string | symbol, ...args: unknown[]): boolean {
    if (event === 'request') {
      const started = process.hrtime.bigint();
      const res = args[1] as http.ServerResponse;
      const end = res.end;
      res.end = function (this: http.ServerResponse, ...endArgs: unknown[]) {
        const out = (end as (...a: unknown[]) => http.ServerResponse).apply(this, endArgs);
        durations.push(Number(process.hrtime.bigint() - started) / 1e6);
        return out;
      } as typeof res.end;
    }
    return (emit as (this: http.Server, event: string | symbol, ...a: unknown[]) => boolean).call(this, event, ...args);
  } as typeof http.Server.prototype.emit;
  process.once('exit', () => writeFileSync(file, JSON.stringify(durations)));
}
