import type { Entity } from '../../domain/catalog/index.js';
import type { ReleaseInfo } from '../port.js';
import type { EsSuppressed } from './suppression.js';
import type { ClusterClient } from './transport.js';

/**
 * One read's view of the cluster: the client, the release it pinned (its concrete indices, never the aliases, so
 * every request of the read sees one release) and the suppression resolved against that release (read once).
 */
export interface EsSession {
  client: ClusterClient;
  info: ReleaseInfo;
  indices: Record<Entity, string>;
  suppression(): EsSuppressed | null;
  tenant?: string;
}
