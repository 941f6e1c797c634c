import type { Entity } from '../domain/catalog/index.js';
import type { QueryRequest, SearchEngine } from './port.js';

/** Which engine call was timed: a count, a page (search, point reads), an export's count or file, column values. */
export type TimedCallKind = 'count' | 'search' | 'export_count' | 'export' | 'values';

export type EngineCallObserver = (entity: Entity, kind: TimedCallKind, seconds: number) => void;

const KIND_OF: Partial<Record<keyof SearchEngine, (args: unknown[]) => TimedCallKind>> = {
  query: (args) => ((args[2] as QueryRequest | undefined)?.page ? 'search' : 'count'),
  exportCount: () => 'export_count',
  exportCsv: () => 'export',
  distinctValues: () => 'values',
  populatedCounts: () => 'values',
};

/**
 * The engine with its query calls timed (metrics): every call named in KIND_OF reports its entity, kind and
 * duration, failed ones too, and nothing else changes. A Proxy rather than a class implementing the port, so that
 * an adapter's own members (the DuckDB engine's `run`, which tests use) stay reachable through it.
 */
export function timedEngine<E extends SearchEngine>(engine: E, observe: EngineCallObserver): E {
  return new Proxy(engine, {
    get(target, prop) {
      const value: unknown = Reflect.get(target, prop, target);
      if (typeof value !== 'function') return value;
      const kindOf = KIND_OF[prop as keyof SearchEngine];
      if (!kindOf) return value.bind(target);
      return async (...args: unknown[]) => {
        const started = performance.now();
        try {
          return await value.apply(target, args);
        } finally {
          observe(args[0] as Entity, kindOf(args), (performance.now() - started) / 1000);
        }
      };
    },
  });
}
