import cliProgress from 'cli-progress';
import type { ProgressEvent, ProgressFn } from './types.js';

/** Bytes read as MB, other phases as plain counts. */
function unitOf(phase: string): (n: number) => string {
  return phase === 'people' || phase === 'companies' ? (n) => `${(n / 2 ** 20).toFixed(0)} MB` : (n) => String(n);
}

/**
 * Progress for the CLI, on stderr (stdout carries the JSON report): a bar per phase on a terminal, and
 * one line per 10 % otherwise, so logs of CI and cron runs stay short.
 */
export function progressReporter(stream: NodeJS.WriteStream = process.stderr): ProgressFn {
  return stream.isTTY ? barReporter(stream) : lineReporter(stream);
}

function barReporter(stream: NodeJS.WriteStream): ProgressFn {
  let phase: string | null = null;
  let bar: cliProgress.SingleBar | null = null;
  return (e: ProgressEvent) => {
    if (e.phase !== phase) {
      bar?.stop();
      phase = e.phase;
      const unit = unitOf(e.phase);
      bar = new cliProgress.SingleBar(
        {
          stream,
          format: `${e.phase.padEnd(10)} [{bar}] {percentage}% | {shown} | {duration_formatted}`,
          hideCursor: true,
          clearOnComplete: false,
        },
        cliProgress.Presets.shades_classic,
      );
      bar.start(Math.max(1, e.total), 0, { shown: `${unit(0)}/${unit(e.total)}` });
    }
    const unit = unitOf(e.phase);
    bar!.setTotal(Math.max(1, e.total));
    bar!.update(e.done, { shown: `${unit(e.done)}/${unit(e.total)}` });
    if (e.done >= e.total) {
      bar!.stop();
      bar = null;
      phase = null;
    }
  };
}

function lineReporter(stream: NodeJS.WriteStream): ProgressFn {
  const shownTenth = new Map<string, number>();
  return (e: ProgressEvent) => {
    const tenth = e.total > 0 ? Math.floor((e.done / e.total) * 10) : 10;
    if ((shownTenth.get(e.phase) ?? -1) >= tenth) return;
    shownTenth.set(e.phase, tenth);
    const unit = unitOf(e.phase);
    stream.write(`${e.phase} ${tenth * 10}% (${unit(e.done)}/${unit(e.total)})\n`);
  };
}
