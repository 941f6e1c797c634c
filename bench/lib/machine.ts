import { availableParallelism, cpus, totalmem } from 'node:os';

/** The machine a benchmark ran on, recorded with its figures (the same code runs at other speeds elsewhere). */
export function machine(): { cpus: number; cpu: string; memory_gb: number; node: string } {
  return {
    cpus: availableParallelism(),
    cpu: cpus()[0]?.model ?? 'unknown',
    memory_gb: Math.round(totalmem() / 2 ** 30),
    node: process.version,
  };
}
