import { readFileSync } from 'node:fs';
import { Client } from '@elastic/elasticsearch';

/** How a process reaches the cluster (ELASTICSEARCH_URL, CDS_ES_API_KEY, CDS_ES_CA_FILE). */
export interface EsConnection {
  /** http(s)://[user:password@]host:9200 (basic authentication from the URL). */
  url: string;
  /** An API key (the base64 `encoded` form), instead of a user in the URL. */
  apiKey?: string;
  /** A PEM file of the CA that signed the cluster's certificate (a self-signed cluster's http_ca.crt). */
  caFile?: string;
}

/** A client for the cluster; the caller closes it. */
export function esClient(c: EsConnection, requestTimeout = 30_000): Client {
  return new Client({
    node: c.url,
    requestTimeout,
    ...(c.apiKey ? { auth: { apiKey: c.apiKey } } : {}),
    ...(c.caFile ? { tls: { ca: readFileSync(c.caFile) } } : {}),
  });
}
