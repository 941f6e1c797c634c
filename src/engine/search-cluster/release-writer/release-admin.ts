import type { ReleaseInfo } from '../../port.js';
import { listReleaseIds, META_KEY, readServing } from '../releases.js';
import { releaseIndex } from '../schema.js';
import type { ClusterClient } from '../transport.js';
import { pruneReleaseIndices, swapAliases } from './indexer.js';

/**
 * `cds releases` on a search cluster: the releases with indices on the cluster, putting an earlier one back (both
 * aliases swapped in one call) and deleting old ones (never the serving one).
 */
export async function describeClusterReleases(
  client: ClusterClient,
  prefix: string,
): Promise<Array<ReleaseInfo & { serving: boolean }>> {
  const serving = await readServing(client, prefix);
  const out: Array<ReleaseInfo & { serving: boolean }> = [];
  for (const id of await listReleaseIds(client, prefix)) {
    const index = releaseIndex(prefix, 'contact', id);
    const info = (await client.getMeta(index))?.[META_KEY] as ReleaseInfo | undefined;
    // An index without its record is a load that did not finish (it never served).
    if (info) out.push({ ...info, serving: serving?.indices.contact === index });
  }
  return out;
}

/** Serves the release named, or the one before the serving one; answers it. */
export async function rollbackClusterRelease(client: ClusterClient, prefix: string, id?: string): Promise<ReleaseInfo> {
  const all = await describeClusterReleases(client, prefix);
  const at = all.findIndex((r) => r.serving);
  const target = id ? all.find((r) => r.id.toLowerCase() === id.toLowerCase()) : at > 0 ? all[at - 1] : undefined;
  if (!target) throw new Error(id ? `no loaded release ${id} on the cluster` : 'no earlier release to roll back to');
  await swapAliases(client, prefix, target.id);
  return target;
}

/** Deletes all but the newest `keep` releases (never the serving one); answers the ids deleted. */
export async function pruneClusterReleases(client: ClusterClient, prefix: string, keep: number): Promise<string[]> {
  return pruneReleaseIndices(client, prefix, await listReleaseIds(client, prefix), keep);
}
