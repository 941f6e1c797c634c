import { suppressionOf } from './domain/suppression.js';
import type { SearchEngine } from './engine/port.js';
import type { StateStore } from './state/port.js';

export interface SuppressionSyncOptions {
  state: Pick<StateStore, 'optOutVersion' | 'allOptOuts'>;
  engine: Pick<SearchEngine, 'setSuppression'>;
  /** How often the list's version is read (ms); a change is applied within about this plus its resolution. */
  everyMs?: number;
  /** A failed read or application (retried at the next poll, the previous list staying applied). */
  onError?: (error: unknown) => void;
  /** After each list applied: its version and the contacts of the serving release it suppresses. */
  onApplied?: (applied: { version: number; contacts: number }) => void;
}

export interface SuppressionSync {
  /** Resolves once a list has been applied the first time (a server can wait for it before it answers). */
  readonly ready: Promise<void>;
  /** Stops polling; resolves once an application in progress has finished. */
  stop(): Promise<void>;
}

/**
 * Keeps the engine's suppression list in step with the opt-out list of the state store: reads the list's version
 * (one cheap read) every `everyMs`, and when it changed reads the whole list and applies it
 * (`engine.setSuppression`). Polls never overlap; a failure keeps the version unapplied, so the next poll retries.
 * Every process that reads the engine (API processes and export workers) runs one.
 */
export function syncSuppression(o: SuppressionSyncOptions): SuppressionSync {
  const everyMs = o.everyMs ?? 500;
  let applied: number | null = null;
  let stopped = false;
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<void> = Promise.resolve();
  let markReady: () => void = () => undefined;
  const ready = new Promise<void>((resolve) => {
    markReady = resolve;
  });
  const poll = async (): Promise<void> => {
    try {
      const version = await o.state.optOutVersion();
      if (version !== applied) {
        const { contacts } = await o.engine.setSuppression(suppressionOf(await o.state.allOptOuts()));
        applied = version;
        o.onApplied?.({ version, contacts });
      }
      markReady();
    } catch (e) {
      o.onError?.(e);
    }
  };
  const tick = (): void => {
    running = poll().finally(() => {
      if (!stopped) {
        timer = setTimeout(tick, everyMs);
        timer.unref();
      }
    });
  };
  tick();
  return {
    ready,
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await running;
    },
  };
}
