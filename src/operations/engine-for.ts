import type { SearchEngine } from '../engine/port.js';
import type { OpContext } from './types.js';

/**
 * The engine as one request sees it: its queries and export counts name the caller's account as their tenant,
 * so the engine shares its connections fairly between accounts (no account takes them all).
 */
export function engineFor(ctx: OpContext): SearchEngine {
  const engine = ctx.services.engine;
  const tenant = ctx.account?.id;
  if (!tenant) return engine;
  return {
    release: () => engine.release(),
    health: () => engine.health(),
    distinctValues: (entity, column, q, limit) => engine.distinctValues(entity, column, q, limit),
    populatedCounts: (entity) => engine.populatedCounts(entity),
    query: (entity, where, req) => engine.query(entity, where, { ...req, tenant }),
    exportCount: (entity, where, req) => engine.exportCount(entity, where, { ...req, tenant }),
    exportCsv: (entity, where, req) => engine.exportCsv(entity, where, req),
    setSuppression: (s) => engine.setSuppression(s),
    close: () => engine.close(),
  };
}
