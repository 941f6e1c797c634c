import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { snakeKey, snakeKeys } from '../../src/cli/json-out.js';
import { runCds } from '../helpers/child-server.js';

/**
 * Every JSON line `cds` prints and every report file it writes uses snake_case keys at every depth, as the REST API
 * does; an account and a key read the same on the CLI as on the API.
 */

/** snake_case: lowercase words joined by `_` (data keys such as column names and opt-out types are too). */
const SNAKE = /^[a-z0-9]+(_[a-z0-9]+)*$/;

/** Every key of every object in `x` that is not snake_case, with its path. */
function camelKeys(x: unknown, path = '$'): string[] {
  if (Array.isArray(x)) return x.flatMap((v, i) => camelKeys(v, `${path}[${i}]`));
  if (x === null || typeof x !== 'object') return [];
  return Object.entries(x).flatMap(([k, v]) => [
    ...(SNAKE.test(k) ? [] : [`${path}.${k}`]),
    ...camelKeys(v, `${path}.${k}`),
  ]);
}

let dir: string;
let scratch: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'cds-json-keys-'));
  scratch = mkdtempSync(join(tmpdir(), 'cds-json-keys-files-'));
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
  rmSync(scratch, { recursive: true, force: true });
});

/** `cds <args> --data DIR`: exit 0 expected; its stdout as parsed JSON lines, each checked for snake_case keys. */
async function lines(args: string[]): Promise<any[]> {
  const { code, out, err } = await runCds([...args, '--data', dir]);
  expect({ args, code, err: code === 0 ? '' : err }).toEqual({ args, code: 0, err: '' });
  const parsed = out
    .trim()
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as unknown);
  expect(parsed.length).toBeGreaterThan(0);
  for (const line of parsed) expect({ args, camel: camelKeys(line) }).toEqual({ args, camel: [] });
  return parsed as any[];
}

describe('snakeKeys', () => {
  it('converts camelCase keys at every depth and leaves data keys, values, arrays and dates alone', () => {
    expect(snakeKey('releaseId')).toBe('release_id');
    expect(snakeKey('rowsPerSecond')).toBe('rows_per_second');
    expect(snakeKey('lastUsedAt')).toBe('last_used_at');
    expect(snakeKey('sha256')).toBe('sha256');
    expect(snakeKey('person_id')).toBe('person_id');
    expect(snakeKey('US')).toBe('US');
    expect(snakeKey('cursor.expired')).toBe('cursor.expired');
    const at = new Date('2026-01-01T00:00:00Z');
    expect(
      snakeKeys({ releaseId: 'r1', source: { peopleFile: 'peopleFile.jsonl', cluster: { rowsPerSecond: 5 } }, at }),
    ).toEqual({ release_id: 'r1', source: { people_file: 'peopleFile.jsonl', cluster: { rows_per_second: 5 } }, at });
    expect(snakeKeys([{ byType: { id: 1 } }, 'camelCase', null])).toEqual([{ by_type: { id: 1 } }, 'camelCase', null]);
  });
});

it('prints snake_case keys at every depth: seed, load --report, releases, accounts, keys, plans, optout', async () => {
  // seed, then seed --if-empty (skipped).
  const [seeded] = await lines(['seed', '--contacts', '200', '--companies', '30', '--seed', '5']);
  expect(seeded).toMatchObject({ load: { contacts: 200, release_id: expect.any(String) } });
  expect(seeded.generate.people_file).toEqual(expect.any(String));
  expect(await lines(['seed', '--contacts', '200', '--companies', '30', '--if-empty'])).toEqual([
    { skipped: true, release: seeded.load.release_id },
  ]);

  // accounts and keys: the API's shapes (GET /v1/account, GET /v1/keys).
  const [created] = await lines(['accounts', 'create', '--plan', 'pro', '--name', 'Json', '--billing-day', '3']);
  expect(Object.keys(created).sort()).toEqual(['account_id', 'api_key']);
  const account = created.account_id as string;
  const listed = await lines(['accounts', 'list']);
  expect(listed.find((a) => a.id === account)).toEqual({
    id: account,
    name: 'Json',
    status: 'active',
    billing_day: 3,
    created_at: expect.any(String),
    plan: expect.objectContaining({ slug: 'pro', contact_credits: expect.any(Object) }),
  });
  const [suspended] = await lines(['accounts', 'suspend', account]);
  expect(suspended).toMatchObject({ id: account, status: 'suspended', billing_day: 3 });
  const [shown] = await lines(['accounts', 'resume', account]);
  expect(shown.status).toBe('active');
  expect(Object.keys(shown.keys[0]).sort()).toEqual(
    ['active', 'created_at', 'id', 'last_used_at', 'name', 'prefix', 'revoked_at'].sort(),
  );
  const [key] = await lines(['keys', 'list', '--account', account]);
  const [revoked] = await lines(['keys', 'revoke', key.id, '--account', account]);
  expect(revoked).toMatchObject({ id: key.id, active: false, revoked_at: expect.any(String) });
  const [fresh] = await lines(['keys', 'create', '--account', account, '--name', 'second']);
  expect(Object.keys(fresh).sort()).toEqual(['api_key', 'key_id']);
  expect((await lines(['keys', 'list', '--account', account])).map((k) => k.active)).toEqual([false, true]);
  expect((await lines(['plans'])).map((p) => p.slug)).toContain('pro');

  // optout: add, list, import with a report, audit, remove.
  await lines(['optout', 'add', '--email', 'json.keys@example.com']);
  expect((await lines(['optout', 'list']))[0]).toMatchObject({ type: 'email', created_at: expect.any(String) });
  const importFile = join(scratch, 'ids.txt');
  const importReport = join(scratch, 'import-report.jsonl');
  writeFileSync(importFile, 'email\nsecond@example.com\nnot an email\n');
  await lines(['optout', 'import', '--type', 'email', '--report', importReport, importFile]);
  for (const l of readFileSync(importReport, 'utf8').trim().split('\n')) expect(camelKeys(JSON.parse(l))).toEqual([]);
  await lines(['optout', 'audit']);
  await lines(['optout', 'remove', '--email', 'second@example.com']);

  // load --report, and a delta with a deletes file naming a person it does not find.
  const dumps = join(dir, 'dumps', readdirSync(join(dir, 'dumps'))[0]!);
  const report = join(scratch, 'load-report.json');
  const [loaded] = await lines([
    'load',
    '--people',
    join(dumps, 'people.jsonl'),
    '--companies',
    join(dumps, 'companies.jsonl'),
    '--report',
    report,
  ]);
  expect(loaded).toMatchObject({ release_id: expect.any(String), rejects_file: expect.any(String) });
  expect(loaded.suppressed.by_type).toMatchObject({ email: expect.any(Number) });
  expect(camelKeys(JSON.parse(readFileSync(report, 'utf8')))).toEqual([]);
  const people = readFileSync(join(dumps, 'people.jsonl'), 'utf8').split('\n').slice(0, 2).join('\n');
  const deltaPeople = join(scratch, 'delta-people.jsonl');
  const deletes = join(scratch, 'deletes.txt');
  writeFileSync(deltaPeople, `${people}\n`);
  writeFileSync(deletes, 'per_json_keys_nobody\n');
  const deltaReport = join(scratch, 'delta-report.json');
  const [delta] = await lines([
    'load',
    '--delta',
    '--people',
    deltaPeople,
    '--deletes',
    deletes,
    '--report',
    deltaReport,
  ]);
  expect(delta.delta).toMatchObject({ parent: loaded.release_id, not_found: 1 });
  expect(JSON.parse(readFileSync(deltaReport, 'utf8')).delta).toMatchObject({ not_found: 1 });
  expect(camelKeys(JSON.parse(readFileSync(deltaReport, 'utf8')))).toEqual([]);

  // releases: list (with each release's source), index, rollback, prune.
  const releases = await lines(['releases', 'list']);
  expect(releases).toHaveLength(3);
  expect(releases[0]).toMatchObject({ created_at: expect.any(String), source: { people_file: expect.any(String) } });
  expect(releases[2]).toMatchObject({ kind: 'delta', source: { deleted: { not_found: 1 } } });
  await lines(['releases', 'index']);
  expect(await lines(['releases', 'rollback'])).toEqual([expect.objectContaining({ serving: loaded.release_id })]);
  await lines(['releases', 'prune', '--keep', '2']);
}, 180_000);
