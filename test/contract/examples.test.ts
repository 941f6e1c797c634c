import * as v from 'valibot';
import { plainRows } from '../../src/domain/json-rows.js';
import { EXAMPLES, exampleInput, examplePath, type OperationExample } from '../../src/operations/examples/index.js';
import { OPERATIONS } from '../../src/operations/index.js';
import type { Operation } from '../../src/operations/types.js';
import { consoleSignIn } from '../helpers/console-client.js';
import { completedEnrichmentRun } from '../helpers/enrichment-run.js';
import { modestProfile } from '../helpers/signal-targets.js';
import { type ApiResponse, startTestApp, type TestApp } from '../helpers/test-app.js';

/**
 * The operations' examples (src/operations/examples/, published in OpenAPI and on /docs) are true: every
 * operation has one, its answer is inside the declared output, and sent to the real app (seeded like the demo)
 * each request answers its status with the example's shape: the same members with the same types (values that
 * depend on the data and the moment differ). Ids in an example's request (an export, an alert, an account) are
 * those its earlier examples created; the run maps them to the ones this app hands out.
 */

const OPERATOR = 'examples-operator-0123456789abcdef';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp({ env: { CDS_ADMIN_TOKEN: OPERATOR, CDS_SIGNALS_DELAY_MS: '0' } });
});
afterAll(async () => app.close());

const byName = new Map(OPERATIONS.map((op) => [op.name, op]));

/**
 * The order the examples run in: creations before the reads of what they created, the alert deleted after it is
 * polled and paused, the key revoked and created last (through the console, the only place a key is created
 * while the account's one active key is revoked; REST answers 409 key.limit_reached before and 401 after).
 */
const LAST = ['signals.alerts.delete', 'keys.revoke', 'keys.create'];
const ORDER = [
  ...OPERATIONS.map((op) => op.name).filter((n) => !LAST.includes(n)),
  ...LAST.filter((n) => byName.has(n)),
];

type Shape = string | Shape[] | { [k: string]: Shape };

/** The JSON shape of a value: objects by member, arrays by their first item, scalars by type (null fits any). */
function shapeOf(x: unknown): Shape {
  if (x === null) return 'null';
  if (Array.isArray(x)) return x.length ? [shapeOf(x[0])] : [];
  if (typeof x === 'object') return Object.fromEntries(Object.entries(x).map(([k, val]) => [k, shapeOf(val)]));
  return typeof x;
}

/** Where the actual answer's shape differs from the example's (paths), empty when they agree. */
function shapeDiff(want: Shape, got: Shape, path = '$'): string[] {
  if (want === 'null' || got === 'null') return [];
  if (Array.isArray(want) || Array.isArray(got)) {
    if (!Array.isArray(want) || !Array.isArray(got))
      return [`${path}: ${JSON.stringify(want)} vs ${JSON.stringify(got)}`];
    return want.length && got.length ? shapeDiff(want[0]!, got[0]!, `${path}[0]`) : [];
  }
  if (typeof want === 'object' || typeof got === 'object') {
    if (typeof want !== 'object' || typeof got !== 'object') return [`${path}: ${String(want)} vs object`];
    const keys = new Set([...Object.keys(want), ...Object.keys(got)]);
    return [...keys].flatMap((k) =>
      !(k in want)
        ? [`${path}.${k}: not in the example`]
        : !(k in got)
          ? [`${path}.${k}: missing from the answer`]
          : shapeDiff(want[k]!, got[k]!, `${path}.${k}`),
    );
  }
  return want === got ? [] : [`${path}: ${want} vs ${got}`];
}

/** Records, position by position, which id of the example is which id of the actual answer. */
function mapIds(example: unknown, actual: unknown, ids: Map<string, string>): void {
  if (typeof example === 'string' && typeof actual === 'string') {
    if (/^[a-z]{2,3}_[A-Za-z0-9]{8,}$/.test(example) && example !== actual) ids.set(example, actual);
    return;
  }
  if (Array.isArray(example) && Array.isArray(actual)) {
    for (const [i, e] of example.entries()) mapIds(e, actual[i], ids);
    return;
  }
  if (example && actual && typeof example === 'object' && typeof actual === 'object') {
    for (const [k, e] of Object.entries(example)) mapIds(e, (actual as Record<string, unknown>)[k], ids);
  }
}

/** The example with the ids of earlier answers in place of the example's own. */
function withIds(example: OperationExample, ids: Map<string, string>): OperationExample {
  const swap = (x: unknown): unknown =>
    typeof x === 'string'
      ? (ids.get(x) ?? x)
      : Array.isArray(x)
        ? x.map(swap)
        : x && typeof x === 'object'
          ? Object.fromEntries(Object.entries(x).map(([k, val]) => [k, swap(val)]))
          : x;
  return { ...example, request: swap(example.request) as OperationExample['request'] };
}

describe('examples', () => {
  it('every operation has at least one example, and every example names an operation', () => {
    const without = OPERATIONS.filter((op) => (op.examples ?? []).length === 0).map((op) => op.name);
    expect(without).toEqual([]);
    expect(Object.keys(EXAMPLES).sort()).toEqual(OPERATIONS.map((op) => op.name).sort());
    for (const op of OPERATIONS) expect(op.examples).toBe(EXAMPLES[op.name]);
  });

  it("every example's request is a valid input and its answer is inside the declared output (CDS_CHECK_CONTRACTS)", () => {
    const failures: string[] = [];
    for (const op of OPERATIONS)
      for (const ex of op.examples ?? []) {
        const input = v.safeParse(op.input, exampleInput(ex));
        if (!input.success) failures.push(`${op.name} request: ${input.issues[0].message}`);
        const body = ex.response.body;
        const parsed = v.safeParse(op.output, op.family === 'B' ? body : plainRows(body.data));
        if (!parsed.success) failures.push(`${op.name} response: ${parsed.issues[0].message}`);
        if (op.family !== 'B') expect({ op: op.name, ok: body.ok }).toEqual({ op: op.name, ok: true });
        expect(ex.response.status).toBeGreaterThanOrEqual(200);
        expect(ex.response.status).toBeLessThan(300);
      }
    expect(failures).toEqual([]);
  });

  it('every example sent to the app answers its status with the shape of its answer', async () => {
    const { apiKey } = await app.createAccount('unlimited', { name: 'Acme' });
    // One export at a time per account: family B's export runs on a second account.
    const exportsB = (await app.createAccount('unlimited', { name: 'Acme' })).apiKey;
    const session = await consoleSignIn(app, apiKey);
    // The enrichment runs' examples read a run: one CSV run is made through an upload page first.
    await completedEnrichmentRun(app, apiKey);
    const ids = new Map<string, string>();
    const failures: string[] = [];
    for (const name of ORDER) {
      const op = byName.get(name)!;
      for (const original of op.examples ?? []) {
        const ex = withIds(original, ids);
        // A profile the simulated network sizes modestly on this release (its sizes follow the release id).
        if (name === 'signals.collect' || name === 'signals.alerts.create')
          ex.request = { ...ex.request, body: { ...ex.request.body, target: await modestProfile(app, name) } };
        const res = await send(op, ex, { apiKey, exportsB, session });
        if (res.status !== ex.response.status) {
          failures.push(
            `${name}: ${res.status} (example ${ex.response.status}) ${JSON.stringify(res.body).slice(0, 200)}`,
          );
          continue;
        }
        const diff = shapeDiff(shapeOf(ex.response.body), shapeOf(res.body));
        if (diff.length) failures.push(`${name}: ${diff.slice(0, 5).join('; ')}`);
        mapIds(ex.response.body, res.body, ids);
      }
    }
    expect(failures).toEqual([]);
  });

  it("every MCP tool's example is a tools/call the MCP endpoint answers without an error", async () => {
    const failures: string[] = [];
    for (const op of OPERATIONS) {
      // Tools that read an id run over REST above; these start from nothing (a fresh account each).
      if (!op.mcp || /:\w/.test(op.path)) continue;
      const { apiKey } = await app.createAccount('unlimited');
      for (const ex of op.examples ?? []) {
        const args = exampleInput(ex);
        if (op.name === 'signals.collect') args.target = await modestProfile(app, 'mcp');
        const res = await fetch(`${app.url}/mcp`, {
          method: 'POST',
          headers: {
            'Content-Type': 'application/json',
            Accept: 'application/json, text/event-stream',
            'X-API-Key': apiKey,
          },
          body: JSON.stringify({
            jsonrpc: '2.0',
            id: 1,
            method: 'tools/call',
            params: { name: op.mcp.tool, arguments: args },
          }),
        });
        const body = (await res.json()) as { result?: { isError?: boolean; structuredContent?: unknown } };
        if (res.status !== 200 || !body.result || body.result.isError || body.result.structuredContent === undefined)
          failures.push(`${op.mcp.tool}: ${res.status} ${JSON.stringify(body).slice(0, 200)}`);
      }
    }
    expect(failures).toEqual([]);
  });
});

/** One example over HTTP the way a client sends it (keys.* through the console session: see ORDER). */
async function send(
  op: Operation,
  ex: OperationExample,
  who: { apiKey: string; exportsB: string; session: Awaited<ReturnType<typeof consoleSignIn>> },
): Promise<ApiResponse> {
  const path = examplePath(op, ex);
  if (op.name === 'keys.revoke' || op.name === 'keys.create') {
    const query = op.method === 'DELETE' ? `?${new URLSearchParams(exampleInput(ex) as Record<string, string>)}` : '';
    return who.session.call(op.method, `/app/api/op/${op.name}${query}`, {
      ...(ex.request.body ? { body: ex.request.body } : {}),
    });
  }
  const body = ex.request.body ? { body: ex.request.body } : {};
  if (op.auth === 'operator')
    return app.request(op.method, path, { headers: { Authorization: `Bearer ${OPERATOR}` }, ...body });
  if (op.auth === 'none') return app.request(op.method, path, body);
  const key = op.name.startsWith('b.contacts.export') ? who.exportsB : who.apiKey;
  return app.request(op.method, path, {
    key,
    ...(op.family === 'B' ? { keyHeader: 'x-api-key' as const } : {}),
    ...body,
  });
}
