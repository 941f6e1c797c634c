import { REQUEST_LOG_CAP, type RequestLogEntry } from '../../domain/request-log.js';
import type { Services } from '../types.js';

/** Entries are written together every FLUSH_MS, or at once when FLUSH_AT are waiting. */
export const FLUSH_MS = 250;
export const FLUSH_AT = 100;
/** Past this many waiting (the store down for a while), the oldest are dropped rather than memory grown. */
const MAX_WAITING = 10_000;

/**
 * The request log's writer: off the request's path. An answered request adds its entry to a buffer; the buffer is
 * written in one call of the state store every 250 ms (or at 100 entries). A failed write is logged and its entries
 * dropped: the log never fails, slows or holds a request. Reads of the log flush this process's buffer first, so a
 * client reads its own requests.
 */
export class RequestLogRecorder {
  private waiting: RequestLogEntry[] = [];
  private timer: NodeJS.Timeout | null = null;
  private writing: Promise<void> = Promise.resolve();

  constructor(private readonly services: Pick<Services, 'state' | 'logger'>) {}

  record(entry: RequestLogEntry): void {
    this.waiting.push(entry);
    if (this.waiting.length > MAX_WAITING) this.waiting.splice(0, this.waiting.length - MAX_WAITING);
    if (this.waiting.length >= FLUSH_AT) void this.flush();
    else if (!this.timer) {
      this.timer = setTimeout(() => void this.flush(), FLUSH_MS);
      this.timer.unref();
    }
  }

  /** Writes what waits (after any write under way); never throws. */
  flush(): Promise<void> {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = null;
    }
    const batch = this.waiting;
    this.waiting = [];
    this.writing = this.writing.then(async () => {
      if (batch.length === 0) return;
      try {
        await this.services.state.appendRequestLog(batch, REQUEST_LOG_CAP);
      } catch (err) {
        this.services.logger.warn({ err, entries: batch.length }, 'could not write request log entries; dropped');
      }
    });
    return this.writing;
  }
}

const recorders = new WeakMap<object, RequestLogRecorder>();

/** The recorder of this process's services (one per composition root). */
export function requestLogOf(services: Pick<Services, 'state' | 'logger'>): RequestLogRecorder {
  let r = recorders.get(services.state);
  if (!r) {
    r = new RequestLogRecorder(services);
    recorders.set(services.state, r);
  }
  return r;
}

/** Operations whose requests are not logged: reading the log does not fill it. */
export const UNLOGGED_OPERATIONS: ReadonlySet<string> = new Set(['requests.list', 'requests.get']);

/** Logs one MCP tool call (the face runs each call of a batch with its own request id). */
export function recordToolCall(
  services: Pick<Services, 'state' | 'logger' | 'clock'>,
  call: {
    accountId: string;
    tool: string;
    operation: string;
    requestId: string;
    startedMs: number;
    status: number;
    errorCode: string | null;
    credits: number;
    keyPrefix: string | null;
    client: { id: string; name: string | null } | undefined;
  },
): void {
  if (UNLOGGED_OPERATIONS.has(call.operation)) return;
  requestLogOf(services).record({
    requestId: call.requestId,
    accountId: call.accountId,
    at: services.clock.now().toISOString(),
    face: 'mcp',
    method: null,
    route: call.tool,
    operation: call.operation,
    status: call.status,
    errorCode: call.errorCode,
    credits: call.credits,
    durationMs: Math.round((performance.now() - call.startedMs) * 10) / 10,
    keyPrefix: call.keyPrefix,
    client: call.client ? (call.client.name ?? call.client.id) : null,
  });
}
