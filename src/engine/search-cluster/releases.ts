import type { Entity } from '../../domain/catalog/index.js';
import type { ReleaseInfo } from '../port.js';
import { aliasName, releaseIndex, releaseOfIndex } from './schema.js';
import type { ClusterClient } from './transport.js';

/** The serving release: its record and concrete indices. */
export interface ServingRelease {
  info: ReleaseInfo;
  indices: Record<Entity, string>;
}

/** Where a release index keeps its record (ReleaseInfo): the mapping's `_meta.release`. */
export const META_KEY = 'release';

/**
 * The release the contacts alias names, or null when there is none yet (a cluster never loaded); `known` is returned
 * as is when the alias still names its index (a poll then costs one request).
 */
export async function readServing(
  client: ClusterClient,
  prefix: string,
  known: ServingRelease | null = null,
): Promise<ServingRelease | null> {
  const index = (await client.aliasIndices(aliasName(prefix, 'contact')))[0];
  if (!index) return null;
  if (known && known.indices.contact === index) return known;
  const id = releaseOfIndex(prefix, 'contact', index);
  if (!id) throw new Error(`alias ${aliasName(prefix, 'contact')} names ${index}, which is not a release index`);
  const meta = (await client.getMeta(index))?.[META_KEY] as ReleaseInfo | undefined;
  if (!meta) throw new Error(`index ${index} has no release record (_meta.${META_KEY})`);
  return { info: meta, indices: { contact: index, company: releaseIndex(prefix, 'company', id) } };
}

/** Release ids that have indices on the cluster (loaded, serving or not), oldest first. */
export async function listReleaseIds(client: ClusterClient, prefix: string): Promise<string[]> {
  const names = await client.indexNames(`${aliasName(prefix, 'contact')}-*`);
  return names
    .map((name) => releaseOfIndex(prefix, 'contact', name))
    .filter((x): x is string => x !== null)
    .sort();
}
