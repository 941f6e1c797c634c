import * as v from 'valibot';
import * as out from '../outputs.js';
import { defineOperation, type Services } from '../types.js';

export async function healthReport(services: Services) {
  const engine = await services.engine.health();
  // The state store's reachability and round trip (SQLite file or Redis); when it fails, why.
  const started = performance.now();
  let stateOk = false;
  let stateError: string | undefined;
  try {
    stateOk = await services.state.ping();
  } catch (e) {
    stateError = (e as Error).message;
  }
  const latencyMs = Math.round((performance.now() - started) * 100) / 100;
  if (!stateOk)
    stateError ??=
      (services.state as { unavailableReason?: string }).unavailableReason ??
      (services.config.state === 'redis'
        ? 'Redis does not answer; the service reconnects by itself and answers 503 until then.'
        : 'The state file does not answer.');
  const ok = engine.ok && stateOk;
  return {
    status: ok ? 'ok' : 'degraded',
    version: services.build.version,
    engine: {
      ok: engine.ok,
      release: engine.release?.id ?? null,
      contacts: engine.release?.contacts ?? null,
      companies: engine.release?.companies ?? null,
      ...(engine.error ? { error: engine.error } : {}),
      ...(engine.pointReads
        ? {
            point_reads: engine.pointReads.ok,
            ...(engine.pointReads.note ? { point_reads_note: engine.pointReads.note } : {}),
          }
        : {}),
      ...(engine.index
        ? { index: engine.index.ok, ...(engine.index.note ? { index_note: engine.index.note } : {}) }
        : {}),
    },
    state: {
      ok: stateOk,
      adapter: services.config.state,
      latency_ms: latencyMs,
      ...(stateError ? { error: stateError } : {}),
    },
  };
}

/** GET /v1/health (also /health): needs no key; with a key the envelope also carries that account's quota. */
export const getHealth = defineOperation({
  name: 'health.get',
  family: 'A',
  method: 'GET',
  path: '/v1/health',
  aliases: ['/health'],
  auth: 'optional',
  spends: false,
  summary: 'Health check',
  description:
    'Reports whether the search engine (with its data release) and the state store answer. Needs no API key.',
  cost: 'free',
  output: out.obj({
    status: out.str,
    version: out.str,
    engine: out.obj({
      ok: out.bool,
      release: out.nullable(out.str),
      contacts: out.nullable(out.num),
      companies: out.nullable(out.num),
    }),
    state: out.obj({ ok: out.bool, adapter: out.str, latency_ms: out.num }),
  }),
  errors: [],
  input: v.object({}),
  handler: async (ctx) => ({ data: await healthReport(ctx.services) }),
});

/** GET /api/health (family B): no key; `ok`, `service`, `version`. */
export const getApiHealth = defineOperation({
  name: 'service.health',
  family: 'B',
  method: 'GET',
  path: '/api/health',
  auth: 'none',
  spends: false,
  summary: 'Service health',
  description: 'Pings the service; answers ok, service and version. Needs no API key; costs nothing.',
  cost: 'free',
  output: out.obj({ service: out.str, version: out.str, status: out.str }),
  errors: [],
  input: v.object({}),
  mcp: {
    tool: 'service_health',
    annotations: { readOnlyHint: true, idempotentHint: true, destructiveHint: false, openWorldHint: false },
  },
  handler: async (ctx) => {
    const report = await healthReport(ctx.services);
    return { body: { service: 'contact-data-service', version: ctx.services.build.version, status: report.status } };
  },
});
