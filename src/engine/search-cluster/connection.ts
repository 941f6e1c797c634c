import { readFileSync } from 'node:fs';

/**
 * How a process reaches its search cluster, whichever the product: OPENSEARCH_URL or ELASTICSEARCH_URL, with
 * CDS_ES_API_KEY and CDS_ES_CA_FILE.
 */
export interface ClusterConnection {
  /**
   * http(s)://[user:password@]host:port (basic authentication from the URL), or several nodes' URLs separated by
   * commas: the client spreads requests over them and sends a request again to another node when one is unreachable.
   */
  url: string;
  /** An API key (the base64 `encoded` form), instead of a user in the URL. */
  apiKey?: string;
  /** A PEM file of the CA that signed the cluster's certificate (a self-signed cluster's CA). */
  caFile?: string;
}

/** The node URLs of a connection (one or several). */
export function nodesOf(c: ClusterConnection): string[] {
  return c.url
    .split(',')
    .map((u) => u.trim())
    .filter(Boolean);
}

/** The CA a connection names, read once for its client (none: the system's CAs). */
export function caOf(c: ClusterConnection): Buffer | undefined {
  return c.caFile ? readFileSync(c.caFile) : undefined;
}
