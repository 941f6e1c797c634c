import type { Logger } from 'pino';
import type * as v from 'valibot';
import type { Config } from '../config.js';
import type { Account, ApiKeyRecord } from '../domain/account.js';
import type { Clock } from '../domain/clock.js';
import type { CreditKind } from '../domain/credits.js';
import type { ErrorCode, WarningCode } from '../domain/errors/index.js';
import type { WhereSqlParser } from '../domain/family-b/where-sql.js';
import type { SearchEngine } from '../engine/port.js';
import type { JobRunner } from '../jobs/runner.js';
import type { WebhookWakeups } from '../jobs/webhooks/wakeups.js';
import type { Metrics } from '../metrics/metrics.js';
import type { NetworkSource } from '../network-signals/port.js';
import type { StateStore } from '../state/port.js';
import type { RateLimiter } from '../state/rate-limiter.js';
import type { RedisClient } from '../state/redis/client.js';
import type { SuppressionSync } from '../suppression-sync.js';
import type { OperationExample } from './examples/types.js';
import type { HoldLeases } from './hold-leases.js';
import type { Quote } from './quote.js';
import type { Settlement } from './settlement.js';

/** Everything an operation may use, chosen once in the composition root (src/services.ts). */
export interface Services {
  config: Config;
  engine: SearchEngine;
  state: StateStore;
  /** Background jobs: `jobs.enqueue(...)` creates a job with its hold and wakes the runner. */
  jobs: JobRunner;
  rateLimiter: RateLimiter;
  /** Where network signals (engagers of posts and company pages) are read: a provider over HTTP or the simulation. */
  networkSource: NetworkSource;
  /** The leases of this process's live request holds (renewed while they live; dead processes' swept). */
  holdLeases: HoldLeases;
  /** Family B where_sql into the Query IR (never executes client text). */
  whereSqlParser: WhereSqlParser;
  /** This instance's Prometheus registry (GET /metrics): the faces, the runner and the engine report to it. */
  metrics: Metrics;
  clock: Clock;
  logger: Logger;
  secret: string;
  build: { version: string };
  /** Keeps the engine's opt-out suppression in step with the state store's list (polled every 250 ms). */
  suppression: SuppressionSync;
  /** Redis mode (CDS_STATE=redis): the process's connection, shared by the state store and the rate limiter. */
  redis?: RedisClient;
  /** Redis mode: BullMQ wake-ups for webhook deliveries (jobs/webhooks/wakeups.ts); absent, the sender polls. */
  webhookWakeups?: WebhookWakeups;
}

export type Family = 'A' | 'B' | 'system';
export type HttpMethod = 'GET' | 'POST' | 'DELETE' | 'PATCH';

export interface Warning {
  code: WarningCode;
  message: string;
  hint?: string;
  keys_applied?: string[];
  resets_at?: string;
}

export interface Page {
  returned: number;
  limit: number;
  total: number | null;
  next_cursor: string | null;
}

export interface OpContext {
  services: Services;
  requestId: string;
  now: Date;
  /** Set for operations with auth 'key'. */
  account?: Account;
  key?: ApiKeyRecord;
  /** The build label of the answer (JSON `release`): build version + data release id. */
  buildLabel: string;
  /** Contact credits this request spent; the quota block reports it. */
  spent: number;
  /** Charges the answer owes, settled by the face when it knows the answer reached the client. */
  settlement: Settlement;
  /** `dry_run: true` on a spending operation: record what it would cost (`quote`) instead of moving credits. */
  dryRun: boolean;
  quote?: Quote;
  /** Which face called: MCP answers are bounded for an agent's context (e.g. 100 rows per search). */
  face: 'rest' | 'mcp';
}

export interface OpResult<D = unknown> {
  status?: number;
  data?: D;
  page?: Page;
  warnings?: Warning[];
  /** Family B: top-level body fields instead of the family A envelope's `data`. */
  body?: Record<string, unknown>;
}

export interface McpSpec {
  tool: string;
  annotations: { readOnlyHint: boolean; idempotentHint: boolean; destructiveHint: boolean; openWorldHint: boolean };
}

/**
 * One operation (ARCHITECTURE rule 3): REST routes and MCP tools are generated from these.
 * `input` validates the merged path params, query string (GET/DELETE) or JSON body (POST/PATCH).
 */
export interface Operation<S extends v.GenericSchema = v.GenericSchema> {
  name: string;
  family: Family;
  method: HttpMethod;
  /** Koa-router path, e.g. `/v1/keys/:id`. */
  path: string;
  /** Other paths serving the same operation (e.g. `/health` beside `/v1/health`). */
  aliases?: string[];
  /** key: API key required; optional: used when sent (health); operator: the operator token; none. */
  auth: 'none' | 'key' | 'optional' | 'operator';
  /** Spending operations are refused for suspended accounts (403 account.suspended). */
  spends: boolean;
  summary: string;
  /** What it does, what it costs, its limits (used in OpenAPI and MCP tool descriptions). */
  description: string;
  cost: string;
  /** The credits a spending operation charges (its 402 code follows from it). */
  charges?: CreditKind;
  input: S;
  /** The response: family A's `data`, family B's body members (built from operations/outputs.ts). */
  output: v.GenericSchema;
  /**
   * Error codes the operation raises itself, beyond those every operation of its kind can answer (auth, rate
   * limits, spending, filters: operations/error-codes.ts). OpenAPI lists them; tests enforce the list.
   */
  errors: readonly ErrorCode[];
  mcp?: McpSpec;
  /** Requests and their answers (operations/examples/, attached in the table): tests, OpenAPI and /docs use them. */
  examples?: readonly OperationExample[];
  handler(ctx: OpContext, input: v.InferOutput<S>): Promise<OpResult>;
}

/** Helps TypeScript infer the handler input from the schema. */
export function defineOperation<S extends v.GenericSchema>(op: Operation<S>): Operation<S> {
  return op;
}
