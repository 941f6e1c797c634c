import type { Entity } from '../../domain/catalog/index.js';
import type { ReleaseInfo } from '../port.js';
import type { ClusterSuppressed } from './suppression.js';
import type { ClusterClient } from './transport.js';

/**
 * One read's view of the cluster: the client, the release it pinned (its concrete indices, never the aliases, so
 * every request of the read sees one release) and the suppression resolved against that release (read once).
 */
export interface ClusterSession {
  client: ClusterClient;
  info: ReleaseInfo;
  indices: Record<Entity, string>;
  suppression(): ClusterSuppressed | null;
  tenant?: string;
}
