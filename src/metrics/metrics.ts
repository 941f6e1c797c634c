import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import type { Hold } from '../domain/credits.js';
import type { EngineHealth } from '../engine/port.js';
import type { TimedCallKind } from '../engine/timed.js';

/**
 * What the scrape-time gauges read, asked once per scrape. Each part is optional: a part not given reports
 * nothing (its series are absent), so a Services built by hand needs none of them.
 */
export interface MetricsSources {
  /** The engine's health: reachability (`cds_engine_up`) and the release serving (`cds_release_*`). */
  engine?: { adapter: string; health(): Promise<EngineHealth> };
  /** Whether the state store answers (`cds_state_up`). */
  state?: { adapter: string; ping(): Promise<boolean> };
  /** Jobs by status (queued, running) in the deployment's queue (`cds_jobs`). */
  jobCounts?(): Promise<Record<string, number>>;
}

/** A scrape must not hang on a store that does not answer: a source slower than this counts as down. */
const SOURCE_TIMEOUT_MS = 2000;

/** Requests are mostly milliseconds; searches and exports' first answers may take seconds (budgets up to 10 s). */
const REQUEST_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];
/** Jobs run from under a second (small collects) to an hour (large exports). */
const JOB_BUCKETS = [0.1, 0.5, 1, 5, 15, 30, 60, 120, 300, 600, 1800, 3600];

/**
 * Process metrics (CPU, memory, event loop, GC) describe the process, not one Services: they live in one registry
 * per process, made on first use, because each `collectDefaultMetrics` call starts an event-loop monitor and a GC
 * observer that nothing can stop, and tests open many Services in one process.
 */
let processRegistry: Registry | undefined;
function processMetrics(): Registry {
  if (!processRegistry) {
    processRegistry = new Registry();
    collectDefaultMetrics({ register: processRegistry, prefix: 'cds_' });
  }
  return processRegistry;
}

/**
 * The service's Prometheus metrics (GET /metrics): one registry per Services instance, never prom-client's global
 * one, so that apps opened side by side in one process (the tests) count apart. The faces and the job runner
 * report through the methods below; the gauges of state that lives elsewhere (release, reachability, queue depth)
 * are read from `MetricsSources` when scraped.
 */
export class Metrics {
  readonly registry = new Registry();
  readonly contentType = this.registry.contentType;
  private sources: MetricsSources = {};

  private readonly requests = new Counter({
    name: 'cds_http_requests_total',
    help: 'HTTP requests answered, by route (the operation name, or a fixed name for other routes) and status.',
    labelNames: ['route', 'status'] as const,
    registers: [this.registry],
  });
  private readonly latency = new Histogram({
    name: 'cds_http_request_duration_seconds',
    help: 'Time from a request to its answer (a streamed body not included), by route.',
    labelNames: ['route'] as const,
    buckets: REQUEST_BUCKETS,
    registers: [this.registry],
  });
  private readonly limited = new Counter({
    name: 'cds_http_rate_limited_total',
    help: 'Requests answered 429, by reason: rate (per-minute), concurrency (in flight), sign_in (failed sign-ins), other.',
    labelNames: ['reason'] as const,
    registers: [this.registry],
  });
  private readonly charged = new Counter({
    name: 'cds_credits_charged_total',
    help: 'Credits charged (committed), by kind (contact, premium) and category (search, export, enrich, none).',
    labelNames: ['kind', 'category'] as const,
    registers: [this.registry],
  });
  private readonly jobDuration = new Histogram({
    name: 'cds_job_duration_seconds',
    help: "Time from a job run's claim to the job's end, by kind and outcome (completed, failed, cancelled).",
    labelNames: ['kind', 'outcome'] as const,
    buckets: JOB_BUCKETS,
    registers: [this.registry],
  });
  private readonly jobFailures = new Counter({
    name: 'cds_jobs_failed_total',
    help: 'Jobs that ended failed (after their retries), by kind.',
    labelNames: ['kind'] as const,
    registers: [this.registry],
  });
  private readonly engineLatency = new Histogram({
    name: 'cds_engine_query_duration_seconds',
    help: 'Engine calls, by entity and kind (count, search, export_count, export, values).',
    labelNames: ['entity', 'kind'] as const,
    buckets: REQUEST_BUCKETS,
    registers: [this.registry],
  });
  private readonly jobs = new Gauge({
    name: 'cds_jobs',
    help: 'Jobs in the queue by status (queued, running), read when scraped.',
    labelNames: ['status'] as const,
    registers: [this.registry],
  });
  private readonly releaseInfo = new Gauge({
    name: 'cds_release_info',
    help: 'The data release serving (always 1; the release id is the label).',
    labelNames: ['release'] as const,
    registers: [this.registry],
  });
  private readonly releaseContacts = new Gauge({
    name: 'cds_release_contacts',
    help: 'Contacts in the release serving (0 when none is loaded).',
    registers: [this.registry],
  });
  private readonly releaseCompanies = new Gauge({
    name: 'cds_release_companies',
    help: 'Companies in the release serving (0 when none is loaded).',
    registers: [this.registry],
  });
  private readonly stateUp = new Gauge({
    name: 'cds_state_up',
    help: 'Whether the state store answers (1) or not (0), by adapter.',
    labelNames: ['adapter'] as const,
    registers: [this.registry],
  });
  private readonly engineUp = new Gauge({
    name: 'cds_engine_up',
    help: 'Whether the search engine serves a release (1) or not (0), by adapter.',
    labelNames: ['adapter'] as const,
    registers: [this.registry],
  });

  private readonly webhookDeliveries = new Counter({
    name: 'cds_webhook_deliveries_total',
    help: 'Webhook delivery attempts by outcome: succeeded, retry (failed, tried again later), failed (for good).',
    labelNames: ['outcome'] as const,
    registers: [this.registry],
  });
  private readonly webhookQueueAge = new Gauge({
    name: 'cds_webhook_queue_age_seconds',
    help: 'How long the oldest webhook delivery that is due has waited (0 when none), as the sender last saw it.',
    registers: [this.registry],
  });
  private readonly webhookQueued = new Gauge({
    name: 'cds_webhook_deliveries_waiting',
    help: 'Webhook deliveries waiting (pending, or being sent), as the sender last saw them.',
    registers: [this.registry],
  });

  constructor() {
    for (const outcome of ['succeeded', 'retry', 'failed']) this.webhookDeliveries.inc({ outcome }, 0);
    // Series that start at zero exist from the start, so rate() sees their first increase.
    for (const reason of ['rate', 'concurrency', 'sign_in', 'other']) this.limited.inc({ reason }, 0);
    for (const category of ['search', 'export', 'enrich']) this.charged.inc({ kind: 'contact', category }, 0);
    this.charged.inc({ kind: 'premium', category: 'none' }, 0);
  }

  /** Where the scrape-time gauges read from (the composition root's engine and state store). */
  scrapeFrom(sources: MetricsSources): void {
    this.sources = sources;
  }

  request(route: string, status: number, seconds: number): void {
    this.requests.inc({ route, status: String(status) });
    this.latency.observe({ route }, seconds);
  }

  rateLimited(reason: 'rate' | 'concurrency' | 'sign_in' | 'other'): void {
    this.limited.inc({ reason });
  }

  /** A hold's charge that the state store committed (`hold.charged`, read from the settled hold). */
  creditsCharged(hold: Pick<Hold, 'kind' | 'category' | 'charged'>): void {
    if (hold.charged > 0) this.charged.inc({ kind: hold.kind, category: hold.category ?? 'none' }, hold.charged);
  }

  jobEnded(kind: string, outcome: string, seconds: number): void {
    this.jobDuration.observe({ kind, outcome }, seconds);
    if (outcome === 'failed') this.jobFailures.inc({ kind });
  }

  webhookAttempt(outcome: 'succeeded' | 'retry' | 'failed'): void {
    this.webhookDeliveries.inc({ outcome });
  }

  webhookQueue(waiting: number, oldestAgeSeconds: number): void {
    this.webhookQueued.set(waiting);
    this.webhookQueueAge.set(Math.max(0, oldestAgeSeconds));
  }

  engineCall(entity: string, kind: TimedCallKind, seconds: number): void {
    this.engineLatency.observe({ entity, kind }, seconds);
  }

  /** The Prometheus text of this instance and of the process, with the scrape-time gauges read now. */
  async render(): Promise<string> {
    await this.readSources();
    return (await processMetrics().metrics()) + (await this.registry.metrics());
  }

  private async readSources(): Promise<void> {
    const { engine, state, jobCounts } = this.sources;
    const [health, reachable, counts] = await Promise.all([
      engine ? bounded(engine.health()) : undefined,
      state ? bounded(state.ping()) : undefined,
      jobCounts ? bounded(jobCounts()) : undefined,
    ]);
    if (engine) {
      this.engineUp.reset();
      this.engineUp.set({ adapter: engine.adapter }, health?.ok ? 1 : 0);
      const release = health?.release ?? null;
      this.releaseInfo.reset();
      if (release) this.releaseInfo.set({ release: release.id }, 1);
      this.releaseContacts.set(release?.contacts ?? 0);
      this.releaseCompanies.set(release?.companies ?? 0);
    }
    if (state) {
      this.stateUp.reset();
      this.stateUp.set({ adapter: state.adapter }, reachable === true ? 1 : 0);
    }
    this.jobs.reset();
    for (const [status, n] of Object.entries(counts ?? {})) this.jobs.set({ status }, n);
  }
}

/** The source's answer, or undefined when it fails or takes longer than SOURCE_TIMEOUT_MS. */
async function bounded<T>(p: Promise<T>): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), SOURCE_TIMEOUT_MS);
    timer.unref();
  });
  try {
    return await Promise.race([p.catch(() => undefined), timeout]);
  } finally {
    clearTimeout(timer);
  }
}
