import autocannon from 'autocannon';
import type { StateStore } from '../../src/state/port.js';

/**
 * The load run's request mix (count, search, enrich, account reads) and its driver, shared by the load bench and
 * the scale-out bench: many accounts, one key each, over many connections.
 */

/** `n` accounts on the bench plan (huge caps), one key each. */
export async function benchKeys(store: StateStore, n: number, name: string): Promise<string[]> {
  const now = new Date();
  const keys: string[] = [];
  for (let i = 0; i < n; i++) {
    const a = await store.createAccount({ name: `${name}-${i}`, plan: 'bench', billingDay: null, now });
    keys.push((await store.createKey(a.id, { name, now })).secret);
  }
  return keys;
}

/** Emails and phones of real rows (for the enrichment request). */
export async function enrichInputs(url: string, key: string): Promise<string[]> {
  const sample = await fetch(`${url}/v1/contacts/search`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({
      filter: { has_work_email: true, has_phone: true },
      limit: 20,
      columns: ['work_email', 'mobile_phone'],
    }),
  });
  const rows = ((await sample.json()) as { data: Array<{ work_email: string; mobile_phone: string | null }> }).data;
  return rows.flatMap((r) => [r.work_email, r.mobile_phone].filter((x): x is string => !!x)).slice(0, 20);
}

export function loadRequests(inputs: string[]): autocannon.Request[] {
  const json = { 'content-type': 'application/json' };
  return [
    {
      method: 'POST',
      path: '/v1/contacts/count',
      headers: json,
      body: JSON.stringify({ filter: { countries: ['us'], seniority: ['vp', 'director'] } }),
    },
    {
      method: 'POST',
      path: '/v1/contacts/search',
      headers: json,
      body: JSON.stringify({
        filter: { functions: ['sales_and_bizdev'], company_size: ['51-200', '201-500'] },
        limit: 25,
      }),
    },
    { method: 'POST', path: '/v1/enrichments', headers: json, body: JSON.stringify({ inputs: inputs.slice(0, 10) }) },
    { method: 'GET', path: '/v1/account', headers: {} },
    {
      method: 'POST',
      path: '/v1/contacts/count',
      headers: json,
      body: JSON.stringify({ filter: { title_query: 'head of growth' } }),
    },
    { method: 'GET', path: '/v1/credits', headers: {} },
  ] as autocannon.Request[];
}

/** Drives the mix: each connection is one key's client, cycling through the requests. */
export function runMix(o: {
  url: string;
  keys: string[];
  requests: autocannon.Request[];
  connections: number;
  duration: number;
}): Promise<autocannon.Result> {
  let client = 0;
  return autocannon({
    url: o.url,
    connections: o.connections,
    duration: o.duration,
    requests: o.requests,
    setupClient: (c) => {
      const key = o.keys[client++ % o.keys.length];
      c.setRequests(o.requests.map((r) => ({ ...r, headers: { ...r.headers, authorization: `Bearer ${key}` } })));
    },
  });
}

/** Status counts of a run, by code. */
export function statusCounts(result: autocannon.Result): Record<string, number> {
  return Object.fromEntries(
    Object.entries(result.statusCodeStats ?? {}).map(([k, v]) => [k, Number((v as { count: number }).count)]),
  );
}
