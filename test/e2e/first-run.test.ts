import { type ChildProcess, spawn } from 'node:child_process';
import { closeSync, existsSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCds } from '../helpers/child-server.js';
import { repoRoot } from '../helpers/paths.js';

/**
 * The first run (`npm start` = `cds start`) as a user sees it: on a fresh data dir it seeds a demo release and
 * prints a banner as one block, whose enrichment example finds a real demo contact; a taken port is one clear line
 * and exit 2; a served process logs one line per request and one per release switch (JSON when not on a terminal).
 * stdout and stderr of the server go to the same file, as they reach a terminal, so the test sees their order.
 */
let dir: string;
let dataDir: string;
let server: ChildProcess;
let outFile: string;

const output = (): string => readFileSync(outFile, 'utf8');

async function until<T>(what: string, fn: () => T | undefined, ms = 90_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = fn();
    if (v !== undefined) return v;
    if (server.exitCode !== null)
      throw new Error(`server exited (${server.exitCode}) waiting for ${what}:\n${output()}`);
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}:\n${output().slice(-2000)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** The JSON log lines printed so far. */
function logLines(): Array<Record<string, unknown>> {
  return output()
    .split('\n')
    .filter((l) => l.startsWith('{"level"'))
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

let banner: string;
let url: string;
let key: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'cds-first-run-'));
  dataDir = join(dir, 'data');
  outFile = join(dir, 'out.log');
  const fd = openSync(outFile, 'w');
  server = spawn(process.execPath, [join(repoRoot(), 'bin', 'cds.js'), 'start', '--data', dataDir, '--port', '0'], {
    env: {
      ...process.env,
      CDS_LOG_LEVEL: 'info',
      CDS_CHECK_CONTRACTS: '1',
      CDS_DEMO_CONTACTS: '2000',
      CDS_DEMO_COMPANIES: '200',
      CDS_DUCKDB_THREADS: '1',
      CDS_DUCKDB_POOL: '2',
    },
    stdio: ['ignore', fd, fd],
  });
  closeSync(fd);
  const all = await until('the banner', () => (output().includes('Stop with Ctrl-C.') ? output() : undefined));
  banner = all.slice(0, all.indexOf('Stop with Ctrl-C.'));
  url = /listening on (http:\/\/\S+)/.exec(banner)![1]!;
  key = /API key {3}(\S+)/.exec(banner)![1]!;
}, 120_000);

afterAll(async () => {
  if (server && server.exitCode === null) {
    const exited = new Promise((r) => server.once('exit', r));
    server.kill('SIGTERM');
    await exited;
  }
  rmSync(dir, { recursive: true, force: true });
});

it('prints the banner as one block, with no log line inside; the start lines follow it', async () => {
  expect(banner).toContain('generating the demo release (2000 contacts, 200 companies)');
  const lines = banner.split('\n');
  expect(lines.filter((l) => l.startsWith('{"level"'))).toEqual([]);
  // The lines the start logged come after the banner.
  const serving = await until('the serving line', () => logLines().find((l) => l.msg === 'data release serving'));
  expect(serving).toMatchObject({ level: 30, contacts: 2000, companies: 200 });
  expect(banner).toContain(`(release ${serving.release}: 2000 contacts, 200 companies)`);
});

it("prints an enrichment example whose inputs are a demo contact's work email and mobile phone", async () => {
  const m = /curl -s (\S+)\/v1\/enrichments -H "Authorization: Bearer (\S+)" -d '(.+)'$/m.exec(banner);
  expect(m).not.toBeNull();
  expect(m![1]).toBe(url);
  expect(m![2]).toBe(key);
  const body = JSON.parse(m![3]!) as { inputs: string[] };
  expect(body.inputs).toHaveLength(2);
  const [email, phone] = body.inputs as [string, string];
  expect(email).toMatch(/^[^@\s]+@[^@\s]+\.[a-z]+$/);
  expect(phone).toMatch(/^\+\d{7,15}$/);
  const res = await fetch(`${m![1]}/v1/enrichments`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${m![2]}`, 'Content-Type': 'application/json' },
    body: m![3],
  });
  expect(res.status).toBe(200);
  const answer = (await res.json()) as {
    data: Array<{ input: string; matched: boolean; contact: Record<string, unknown> | null }>;
  };
  expect(answer.data.map((d) => [d.input, d.matched])).toEqual([
    [email, true],
    [phone, true],
  ]);
  expect(answer.data[0]!.contact).toMatchObject({ work_email: email, mobile_phone: phone });
  expect(answer.data[1]!.contact!.id).toBe(answer.data[0]!.contact!.id);
});

it('logs one JSON line per request at info (method, route, status, ms, request id), never the key or query', async () => {
  const res = await fetch(`${url}/v1/contacts/schema/industries/values?q=soft&limit=5&api_key=${key}`, {
    headers: { Authorization: `Bearer ${key}` },
  });
  const id = res.headers.get('x-request-id');
  expect(id).toMatch(/^req_/);
  const line = await until('the request line', () => logLines().find((l) => l.request_id === id));
  expect(line).toMatchObject({
    level: 30,
    msg: 'request',
    method: 'GET',
    route: '/v1/contacts/schema/:column/values',
    status: res.status,
  });
  expect(typeof line.ms).toBe('number');
  const text = JSON.stringify(line);
  expect(text).not.toContain(key);
  expect(text).not.toContain('soft');
  // A bad key, sent in the path: not logged either.
  const probe = await fetch(`${url}/nothing/${key}`, { headers: { 'X-API-Key': key } });
  const probeId = probe.headers.get('x-request-id');
  const probeLine = await until('the probe line', () => logLines().find((l) => l.request_id === probeId));
  expect(probeLine).toMatchObject({ method: 'GET', status: 404 });
  expect(JSON.stringify(probeLine)).not.toContain(key);
  expect(logLines().filter((l) => JSON.stringify(l).includes(key.slice(4)))).toEqual([]);
});

it('logs one line when a new release, loaded while it serves, takes over', async () => {
  const before = logLines().find((l) => l.msg === 'data release serving')!;
  const seeded = await runCds(['seed', '--data', dataDir, '--contacts', '300', '--companies', '30', '--seed', '7']);
  expect(seeded.code).toBe(0);
  const switched = await until('the switch line', () => logLines().find((l) => l.msg === 'data release switched'));
  expect(switched).toMatchObject({ level: 30, previous: before.release, contacts: 300, companies: 30 });
  expect(switched.release).not.toBe(before.release);
  await new Promise((r) => setTimeout(r, 1500));
  expect(logLines().filter((l) => l.msg === 'data release switched')).toHaveLength(1);
}, 60_000);

it('a second server on the same port exits 2 with one line saying how to choose another', async () => {
  const port = new URL(url).port;
  const fresh = join(dir, 'second');
  for (const command of ['start', 'serve']) {
    const second = await runCds([command, '--data', fresh, '--port', port]);
    expect(second.code).toBe(2);
    expect(second.err).toBe(
      `cds ${command}: port ${port} on 127.0.0.1 is already in use (is another cds running?): choose another with ` +
        '--port N or PORT=N (0 picks any free port)\n',
    );
    expect(second.out).toBe('');
  }
  // Said before any demo data is generated.
  expect(existsSync(join(fresh, 'releases'))).toBe(false);
}, 60_000);
