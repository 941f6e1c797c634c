import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { seedRelease } from '../../loaders/seed.js';
import { ensureSecret, loadConfig } from '../../src/config.js';
import { openSqliteStore } from '../../src/state/sqlite/index.js';
import { expectError } from '../helpers/errors.js';
import { startTestApp } from '../helpers/test-app.js';

describe('query budgets', () => {
  it('a search past its budget answers 504 query.timeout; a count past it is null with count_unavailable', async () => {
    const app = await startTestApp({
      contacts: 20_000,
      companies: 1000,
      env: { CDS_SEARCH_BUDGET_MS: '1', CDS_COUNT_BUDGET_MS: '1' },
    });
    try {
      const { apiKey } = await app.createAccount('pro');
      const heavy = {
        where: {
          or: [
            { field: 'title', op: 'contains', value: 'an' },
            { field: 'experience', op: 'contains', value: 'in' },
            { field: 'education', op: 'contains', value: 'univ' },
          ],
        },
      };
      const s = await app.request('POST', '/v1/contacts/search', {
        key: apiKey,
        body: { filter: heavy, limit: 1000, columns: ['*'] },
      });
      expectError(s, 504, 'query.timeout');
      expect(s.body.quota.contact_credits_used).toBe(0);
      const c = await app.request('POST', '/v1/contacts/count', { key: apiKey, body: { filter: heavy } });
      expect(c.status).toBe(200);
      expect(c.body.data.count).toBeNull();
      expect(c.body.warnings.map((w: { code: string }) => w.code)).toContain('count_unavailable');
      // Nothing was held or charged by the timed-out search.
      const credits = await app.request('GET', '/v1/credits', { key: apiKey });
      expect(JSON.stringify(credits.body.data)).toContain('"held":0');
    } finally {
      await app.close();
    }
  }, 120_000);

  it('an enrichment the point store answers needs no query; one that reads the release past its budget answers 504, ' +
    'free', async () => {
    const app = await startTestApp({ contacts: 20_000, companies: 1000, env: { CDS_SEARCH_BUDGET_MS: '1' } });
    try {
      const { apiKey } = await app.createAccount('pro');
      const stored = await app.services.engine.query(
        'contact',
        { field: 'work_email', op: 'exists' },
        { page: { columns: ['work_email'], afterSortKey: null, limit: 100, budgetMs: 60_000 } },
      );
      const inputs = stored.rows.map((r) => String(r.work_email));
      expect(inputs).toHaveLength(100);
      // Default columns: the card holds them, so the 1 ms budget of a release query never applies.
      const fromStore = await app.request('POST', '/v1/enrichments', { key: apiKey, body: { inputs } });
      expect(fromStore.status).toBe(200);
      expect(fromStore.body.data.filter((r: { matched: boolean }) => r.matched)).toHaveLength(100);
      expect(fromStore.body.quota.contact_credits_used).toBe(100);
      // Every column: read from the release, which stops the lookup at its budget.
      const wide = await app.request('POST', '/v1/enrichments', { key: apiKey, body: { inputs, columns: ['*'] } });
      expectError(wide, 504, 'query.timeout');
      expect(wide.body.quota.contact_credits_used).toBe(0);
      expect(wide.body.quota.month_remaining).toBe(fromStore.body.quota.month_remaining);
    } finally {
      await app.close();
    }
  }, 120_000);
});

describe('unreadable files', () => {
  let dir: string;
  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'cds-fault-'));
    await seedRelease({ dataDir: dir, contacts: 500, companies: 50, seed: 3, asOf: new Date('2026-11-01T00:00:00Z') });
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('a corrupt DuckDB release: health reports it, data routes answer 503 data.unavailable, the process lives', async () => {
    const current = JSON.parse(readFileSync(join(dir, 'releases', 'CURRENT'), 'utf8')) as { file: string };
    const file = current.file.startsWith('/') ? current.file : join(dir, 'releases', current.file);
    writeFileSync(file, Buffer.alloc(4096, 7));
    const app = await startTestApp({ dataDir: dir, noSeed: true });
    try {
      const { apiKey } = await app.createAccount('pro');
      const h = await app.request('GET', '/v1/health');
      expect(h.status).toBe(200);
      expect(h.body.data.status).toBe('degraded');
      expect(h.body.data.engine.ok).toBe(false);
      const c = await app.request('POST', '/v1/contacts/count', { key: apiKey, body: { filter: {} } });
      expectError(c, 503, 'data.unavailable');
      const e = await app.request('POST', '/v1/enrichments', { key: apiKey, body: { inputs: ['jane.doe@acme.com'] } });
      expectError(e, 503, 'data.unavailable');
      expect(e.body.quota.contact_credits_used).toBe(0);
      expect((await app.request('GET', '/v1/account', { key: apiKey })).status).toBe(200);
    } finally {
      await app.close();
    }
  });

  it('a corrupt state file: health reports it and keyed routes answer 503 data.unavailable', async () => {
    writeFileSync(join(dir, 'state.sqlite'), Buffer.alloc(8192, 9));
    const app = await startTestApp({ dataDir: dir, noSeed: true });
    try {
      const h = await app.request('GET', '/v1/health');
      expect(h.body.data.state.ok).toBe(false);
      expect(h.body.data.status).toBe('degraded');
      const r = await app.request('GET', '/v1/account', { key: `cds_${'x'.repeat(40)}` });
      expectError(r, 503, 'data.unavailable');
      expect((await app.request('GET', '/api/health')).status).toBe(200);
    } finally {
      await app.close();
    }
  });
});

describe('holds left by a process that died mid-request', () => {
  it('are released at start-up; settled holds and job holds are untouched', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cds-orphan-'));
    try {
      await seedRelease({
        dataDir: dir,
        contacts: 300,
        companies: 30,
        seed: 5,
        asOf: new Date('2026-11-01T00:00:00Z'),
      });
      const config = loadConfig(['--data', dir]);
      const store = openSqliteStore({ file: join(dir, 'state.sqlite'), keyPepper: ensureSecret(config) });
      const now = new Date('2026-11-10T12:00:00Z');
      const acc = await store.createAccount({ name: 'x', plan: 'pro', billingDay: null, now });
      const orphan = await store.reserve({
        accountId: acc.id,
        kind: 'contact',
        category: 'search',
        amount: 70,
        mode: 'exact',
        now,
      });
      const done = await store.reserve({
        accountId: acc.id,
        kind: 'contact',
        category: 'search',
        amount: 5,
        mode: 'exact',
        now,
      });
      await store.commit(done.id, 5, now);
      await store.close();
      const app = await startTestApp({ dataDir: dir, noSeed: true });
      try {
        expect((await app.services.state.getHold(orphan.id))!.status).toBe('released');
        expect((await app.services.state.getHold(done.id))!.status).toBe('committed');
        const snap = await app.services.state.snapshot(acc.id, now);
        expect(snap.contact.kind === 'windows' && snap.contact.day.held).toBe(0);
        expect(snap.contact.kind === 'windows' && snap.contact.day.used).toBe(5);
      } finally {
        await app.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
