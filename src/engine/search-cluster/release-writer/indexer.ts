import type { Entity } from '../../../domain/catalog/index.js';
import type { ReleaseInfo } from '../../port.js';
import { indexMappings, indexSettings } from '../mappings.js';
import { META_KEY } from '../releases.js';
import { aliasName, releaseIndex } from '../schema.js';
import type { AliasAction, ClusterClient } from '../transport.js';
import { documentOf } from './documents.js';

export interface IndexerOptions {
  client: ClusterClient;
  /** Prefix of the deployment's index and alias names (CDS_ES_PREFIX). */
  prefix: string;
  shards: number;
  /** Replicas once the release is loaded (none while loading). */
  replicas: number;
  /** The first pause before rows answered 429 are sent again (doubling each time); 500 ms by default. */
  retryMs?: number;
}

/** Times rows a bulk request got 429 for are sent again before they count as refused. */
export const BULK_RETRIES = 5;

/** A row the cluster refused, with its reason. */
export interface RefusedRow {
  entity: Entity;
  id: string;
  reason: string;
}

/**
 * Writes one release into new versioned indices (`contacts-<release>`, `companies-<release>`): created with refresh
 * off and no replicas, filled with bulk requests, then given their settings back (refresh, replicas), refreshed and
 * stamped with the release record; `publish` swaps both aliases to them in one `_aliases` call (atomic: readers see
 * the old release or the new one). `remove` deletes them (a failed load leaves the aliases where they were).
 */
export class ReleaseIndexer {
  readonly indices: Record<Entity, string>;
  readonly refused: RefusedRow[] = [];
  private indexed: Record<Entity, number> = { contact: 0, company: 0 };
  /** Wall time with at least one bulk request in flight (requests may overlap), and since when the current run. */
  private ms = 0;
  private running = 0;
  private busySince = 0;

  constructor(
    private readonly o: IndexerOptions,
    readonly releaseId: string,
  ) {
    this.indices = {
      contact: releaseIndex(o.prefix, 'contact', releaseId),
      company: releaseIndex(o.prefix, 'company', releaseId),
    };
  }

  /** The cluster's product (`OpenSearch`, `Elasticsearch`), as load errors name it. */
  get product(): string {
    return this.o.client.product;
  }

  async create(): Promise<void> {
    for (const entity of ['company', 'contact'] as const) {
      await this.o.client.createIndex(
        this.indices[entity],
        { ...indexSettings(this.o.shards, 0), refresh_interval: '-1' },
        indexMappings(entity),
      );
    }
  }

  /**
   * Indexes one batch of rows (in sort_key order); refused rows are kept in `refused`. Rows the cluster answers 429 for
   * (its write queue is full: es_rejected_execution_exception) are sent again after a pause, doubling from
   * `retryMs`, up to BULK_RETRIES times, as the clients' own bulk helpers do; only then are they refused.
   */
  async bulk(entity: Entity, rows: readonly Record<string, unknown>[]): Promise<void> {
    if (rows.length === 0) return;
    if (this.running++ === 0) this.busySince = Date.now();
    try {
      await this.send(entity, rows);
    } finally {
      if (--this.running === 0) this.ms += Date.now() - this.busySince;
    }
    this.indexed[entity] += rows.length;
  }

  private async send(entity: Entity, rows: readonly Record<string, unknown>[]): Promise<void> {
    let pending = rows;
    for (let attempt = 0; pending.length > 0; attempt++) {
      const operations: unknown[] = [];
      for (const r of pending)
        operations.push({ index: { _index: this.indices[entity], _id: String(r.id) } }, documentOf(entity, r));
      const res = await this.o.client.bulk(operations);
      const again: Record<string, unknown>[] = [];
      if (res.errors) {
        res.items.forEach((op, i) => {
          if (!op.error) return;
          const row = pending[i]!;
          if (op.status === 429 && attempt < BULK_RETRIES) again.push(row);
          else this.refused.push({ entity, id: String(row.id), reason: op.error.reason ?? op.error.type });
        });
      }
      pending = again;
      if (pending.length > 0) await new Promise((r) => setTimeout(r, (this.o.retryMs ?? 500) * 2 ** attempt));
    }
  }

  /** Rows sent and the rate of the bulk requests (rows per second of the time any bulk request was in flight). */
  stats(): { contacts: number; companies: number; rowsPerSecond: number } {
    const rows = this.indexed.contact + this.indexed.company;
    return {
      contacts: this.indexed.contact,
      companies: this.indexed.company,
      rowsPerSecond: this.ms > 0 ? Math.round((rows * 1000) / this.ms) : 0,
    };
  }

  /** Settings back (refresh every second, the default; replicas), a refresh, and the release record in the contacts index's `_meta`. */
  async finish(info: ReleaseInfo): Promise<void> {
    for (const entity of ['company', 'contact'] as const) {
      await this.o.client.putSettings(this.indices[entity], {
        refresh_interval: '1s',
        number_of_replicas: this.o.replicas,
      });
      await this.o.client.refresh(this.indices[entity]);
      await this.o.client.putMeta(this.indices[entity], { [META_KEY]: info });
    }
  }

  /** Points both aliases at this release in one `_aliases` call (removing them from the release they named). */
  publish(): Promise<void> {
    return swapAliases(this.o.client, this.o.prefix, this.releaseId);
  }

  /** Deletes this release's indices (what a failed load wrote). */
  async remove(): Promise<void> {
    await this.o.client.deleteIndices([this.indices.contact, this.indices.company]).catch(() => undefined);
  }
}

/** Points both aliases at a release's indices in one `_aliases` call, atomically (removing them from the others). */
export async function swapAliases(client: ClusterClient, prefix: string, releaseId: string): Promise<void> {
  const actions: AliasAction[] = [];
  for (const entity of ['contact', 'company'] as const) {
    const alias = aliasName(prefix, entity);
    for (const index of await client.aliasIndices(alias)) actions.push({ remove: { index, alias } });
    actions.push({ add: { index: releaseIndex(prefix, entity, releaseId), alias } });
  }
  await client.updateAliases(actions);
}

/** Deletes the indices of releases older than the newest `keep` that no alias names. */
export async function pruneReleaseIndices(
  client: ClusterClient,
  prefix: string,
  ids: readonly string[],
  keep: number,
): Promise<string[]> {
  const serving = new Set(await client.aliasIndices(aliasName(prefix, 'contact')));
  const old = ids
    .slice(0, Math.max(0, ids.length - keep))
    .filter((id) => !serving.has(releaseIndex(prefix, 'contact', id)));
  if (old.length) {
    await client.deleteIndices(
      old.flatMap((id) => [releaseIndex(prefix, 'contact', id), releaseIndex(prefix, 'company', id)]),
    );
  }
  return old;
}
