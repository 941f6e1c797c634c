import { type DestinationStream, type Logger, pino } from 'pino';

/**
 * Where the process's log lines go: stderr, one pino JSON line per event, or on a terminal one human line
 * (`HH:MM:SS LEVEL message key=value`), formatted here so no prettifier dependency is needed. `hold()` keeps lines
 * back until `release()` (at most HELD_MAX, the rest counted), so `cds start` prints its banner as one block and
 * the startup lines follow it.
 */
export class LogSink implements DestinationStream {
  private held: string[] | null = null;
  private dropped = 0;

  constructor(
    private readonly out: { write(text: string): unknown },
    readonly pretty: boolean,
  ) {}

  write(line: string): void {
    const text = this.pretty ? prettyLine(line) : line;
    if (!this.held) {
      this.out.write(text);
    } else if (this.held.length < HELD_MAX) {
      this.held.push(text);
    } else {
      this.dropped++;
    }
  }

  /** Keeps lines back from now until `release()`. */
  hold(): void {
    this.held ??= [];
  }

  /** Writes the lines kept back, in order, and writes the next ones at once. */
  release(): void {
    const held = this.held;
    this.held = null;
    for (const text of held ?? []) this.out.write(text);
    if (this.dropped > 0) this.out.write(`(${this.dropped} more log lines of the start were left out)\n`);
    this.dropped = 0;
  }
}

const HELD_MAX = 1000;

/** stderr's sink: human lines when stderr is a terminal, JSON lines otherwise. */
export function stderrSink(): LogSink {
  return new LogSink(pino.destination({ dest: 2, sync: true }), process.stderr.isTTY === true);
}

export function makeLogger(level: string, sink: DestinationStream = stderrSink()): Logger {
  return pino({ level, base: { service: 'cds' } }, sink);
}

const LEVELS: Record<number, string> = { 10: 'TRACE', 20: 'DEBUG', 30: 'INFO', 40: 'WARN', 50: 'ERROR', 60: 'FATAL' };
/** Members every line has, or that the human line shows in its own place. */
const HIDDEN = new Set(['level', 'time', 'msg', 'service', 'pid', 'hostname', 'v']);

function clock(time: unknown): string {
  const d = typeof time === 'number' ? new Date(time) : new Date();
  return [d.getHours(), d.getMinutes(), d.getSeconds()].map((n) => String(n).padStart(2, '0')).join(':');
}

function shown(value: unknown): string {
  if (typeof value === 'string') return /^[^\s"=]+$/.test(value) ? value : JSON.stringify(value);
  if (value && typeof value === 'object') {
    const err = value as { message?: unknown; type?: unknown };
    // pino's err serializer: the message says enough on one line.
    if (typeof err.message === 'string') return JSON.stringify(err.message);
    return JSON.stringify(value);
  }
  return String(value);
}

/**
 * One pino JSON line as `HH:MM:SS LEVEL message key=value …`; a request line as `HH:MM:SS INFO  POST /v1/route
 * 200 12.3ms req_…`. A line that is not JSON passes unchanged.
 */
export function prettyLine(line: string): string {
  let o: Record<string, unknown>;
  try {
    o = JSON.parse(line) as Record<string, unknown>;
  } catch {
    return line;
  }
  const level = (LEVELS[o.level as number] ?? String(o.level)).padEnd(5);
  const parts = [clock(o.time), level];
  const fields = Object.entries(o).filter(([k, v]) => !HIDDEN.has(k) && v !== undefined && v !== null);
  if (o.msg === 'request' && typeof o.method === 'string' && typeof o.route === 'string') {
    parts.push(o.method, o.route, String(o.status), `${o.ms}ms`, String(o.request_id ?? ''));
    const rest = fields.filter(([k]) => !['method', 'route', 'status', 'ms', 'request_id'].includes(k));
    for (const [k, v] of rest) parts.push(`${k}=${shown(v)}`);
  } else {
    if (typeof o.msg === 'string') parts.push(o.msg);
    for (const [k, v] of fields) parts.push(`${k}=${shown(v)}`);
  }
  const stack = (o.err as { stack?: unknown } | undefined)?.stack;
  // An error's stack follows its line, indented, where a human reads it.
  const trace =
    typeof stack === 'string' && (o.level as number) >= 50
      ? `${stack
          .split('\n')
          .map((l) => `    ${l}`)
          .join('\n')}\n`
      : '';
  return `${parts.join(' ').trimEnd()}\n${trace}`;
}
