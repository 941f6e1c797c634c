import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { loadRelease } from '../../loaders/load/index.js';
import type { IRNode } from '../../src/domain/query/ir.js';
import { lowerText } from '../../src/domain/text/lower.js';
import { wordsKey } from '../../src/domain/text/words.js';
import { type DuckDBEngine, openDuckDBEngine } from '../../src/engine/duckdb/duckdb-engine.js';
import { compileWhere } from '../../src/engine/search-cluster/compile/compile-where.js';
import { phraseText } from '../../src/engine/search-cluster/compile/words.js';
import { startTestApp } from '../helpers/test-app.js';
import { matches } from './conformance/ir-eval.js';

/**
 * Case-insensitive matching lowercases code point by code point, as DuckDB's lower() and Lucene's lowercase filter do
 * (Elasticsearch's `.lower` normalizer and `.words` analyzer), not as JavaScript's toLowerCase, which lowercases a
 * word-final `Σ` to `ς` and `İ` to two code points. Greek and Turkish text in capitals matched differently by the
 * whole-word filters, the distinct-value search and the Elasticsearch compiler before.
 */

describe('lowerText', () => {
  it('agrees with DuckDB lower() on every code point DuckDB lowercases', async () => {
    const inst = await DuckDBInstance.create(':memory:');
    const conn = await inst.connect();
    try {
      const differ: number[] = [];
      let lowered = 0;
      const points: number[] = [];
      for (let cp = 2; cp <= 0x10ffff; cp++) if (cp < 0xd800 || cp > 0xdfff) points.push(cp);
      for (let k = 0; k < points.length; k += 20_000) {
        const chars = points.slice(k, k + 20_000).map((cp) => String.fromCodePoint(cp));
        const reader = await conn.runAndReadAll('SELECT lower(?) AS l', [chars.join('\u0001')]);
        const duck = String(reader.getRows()[0]![0]).split('\u0001');
        expect(duck).toHaveLength(chars.length);
        chars.forEach((ch, i) => {
          if (duck[i] !== ch) lowered++;
          if (duck[i] !== lowerText(ch)) {
            // Only letters newer than DuckDB's Unicode tables (which it leaves as they are) may differ.
            expect([ch.codePointAt(0), duck[i]]).toEqual([ch.codePointAt(0), ch]);
            differ.push(ch.codePointAt(0)!);
          }
        });
      }
      expect(lowered).toBeGreaterThan(1000);
      expect(differ.length).toBeLessThan(100);
      // Whole strings too: DuckDB lowercases without context, as lowerText does.
      const texts = ['ΟΔΟΣ ΣΑΣ', 'İSTANBUL İli', 'STRASSE ẞ', 'ΆΝΝΑ ΣΟΦΊΑ', 'Ǆemal ǅ', 'ÀÉÎÕÜ Ñ', 'ԱՐԱՄ', 'ᏣᎳᎩ'];
      const reader = await conn.runAndReadAll(`SELECT ${texts.map((_, i) => `lower($${i + 1})`).join(', ')}`, texts);
      expect(reader.getRows()[0]).toEqual(texts.map(lowerText));
    } finally {
      conn.closeSync();
      inst.closeSync();
    }
  });

  it('differs from toLowerCase where the engines do: a final Σ is σ, İ is i', () => {
    expect(lowerText('ΔΙΕΥΘΥΝΤΗΣ')).toBe('διευθυντησ');
    expect('ΔΙΕΥΘΥΝΤΗΣ'.toLowerCase()).toBe('διευθυντης');
    expect(lowerText('İSTANBUL')).toBe('istanbul');
    expect([...'İSTANBUL'.toLowerCase()]).toHaveLength(9);
    expect(lowerText('Head of Sales')).toBe('head of sales');
    expect(wordsKey('İstanbul Bölge Müdürü')).toBe(' istanbul bölge müdürü ');
    expect(wordsKey('ΔΙΕΥΘΥΝΤΗΣ ΠΩΛΗΣΕΩΝ')).toBe(' διευθυντησ πωλησεων ');
  });
});

describe('Elasticsearch compiles lowercased values as its lowercase filter stores the text', () => {
  it('contains and prefix on `.lower`, and whole-word phrases for `.words`', () => {
    expect(compileWhere('contact', { field: 'name', op: 'contains', value: 'İLKER' })).toEqual({
      wildcard: { 'name.lower': { value: '*ilker*' } },
    });
    expect(compileWhere('contact', { field: 'name', op: 'prefix', value: 'ΝΙΚΟΣ' })).toEqual({
      prefix: { 'name.lower': { value: 'νικοσ' } },
    });
    // The phrase's tokens are what the `cds_words` analyzer makes of the stored title (lowercase filter: per code point).
    expect(phraseText('ΔΙΕΥΘΥΝΤΗΣ ΠΩΛΗΣΕΩΝ')).toBe('διευθυντησ πωλησεων');
    expect(phraseText('İstanbul bölge')).toBe('istanbul bölge');
  });
});

describe('the DuckDB engine on text in capitals of other scripts', () => {
  let dir: string;
  let engine: DuckDBEngine;
  let rows: Record<string, unknown>[];
  const people = [
    { id: 'per_tr1', name: 'İLKER ŞAHİN', title: 'İSTANBUL BÖLGE MÜDÜRÜ', city: 'İstanbul', skill: 'İŞ GELİŞTİRME' },
    { id: 'per_tr2', name: 'Ilker Demir', title: 'Istanbul Satış Temsilcisi', city: 'Izmir', skill: 'iş geliştirme' },
    { id: 'per_gr1', name: 'ΝΙΚΟΣ ΠΑΠΑΔΟΠΟΥΛΟΣ', title: 'ΔΙΕΥΘΥΝΤΗΣ ΠΩΛΗΣΕΩΝ', city: 'Αθήνα', skill: 'ΠΩΛΗΣΕΙΣ' },
    { id: 'per_gr2', name: 'Νίκος Γεωργίου', title: 'Διευθυντής Πωλήσεων', city: 'Πάτρα', skill: 'Πωλήσεις' },
    { id: 'per_de1', name: 'Jürgen Groß', title: 'LEITER VERTRIEB', city: 'München', skill: 'Vertrieb' },
  ];

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'cds-unicode-'));
    writeFileSync(join(dir, 'companies.jsonl'), `${JSON.stringify({ company_id: 'com_u1', name: 'Örnek A.Ş.' })}\n`);
    writeFileSync(
      join(dir, 'people.jsonl'),
      `${people
        .map((p) =>
          JSON.stringify({
            person_id: p.id,
            full_name: p.name,
            city: p.city,
            country: 'DE',
            skills: [p.skill],
            personas: [p.id.startsWith('per_tr') ? 'SATIŞ LİDERİ' : p.id.startsWith('per_gr') ? 'ΗΓΕΤΗΣ' : 'Leiter'],
            roles: [{ title: p.title, company_id: 'com_u1', start_date: '2024-01-01', is_primary: true }],
            updated_at: '2026-10-01',
          }),
        )
        .join('\n')}\n`,
    );
    await loadRelease({
      dataDir: join(dir, 'data'),
      peopleFile: join(dir, 'people.jsonl'),
      companiesFile: join(dir, 'companies.jsonl'),
      asOf: new Date('2026-11-01T00:00:00Z'),
    });
    engine = await openDuckDBEngine({ dataDir: join(dir, 'data'), poolSize: 1, threads: 1 });
    rows = await engine.run('SELECT * FROM contacts ORDER BY sort_key');
    expect(rows).toHaveLength(people.length);
  });
  afterAll(async () => {
    await engine?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const idsOf = async (where: IRNode): Promise<string[]> => {
    const res = await engine.query('contact', where, {
      countBudgetMs: 10_000,
      page: { columns: ['id'], afterSortKey: null, limit: 100, budgetMs: 10_000 },
    });
    expect(res.count).toBe(res.rows.length);
    return res.rows.map((r) => String(r.id)).sort();
  };
  const expected = (where: IRNode): string[] =>
    rows
      .filter((r) => matches('contact', where, r))
      .map((r) => String(r.id))
      .sort();

  it.each([
    [{ field: 'title', op: 'words', value: 'διευθυντησ πωλησεων' }, ['per_gr1']],
    [{ field: 'title', op: 'words', value: 'ΔΙΕΥΘΥΝΤΗΣ' }, ['per_gr1']],
    [{ field: 'title', op: 'words', value: 'Διευθυντής' }, ['per_gr2']],
    [{ field: 'title', op: 'words', value: 'istanbul bölge' }, ['per_tr1']],
    [{ field: 'title', op: 'words', value: 'İstanbul' }, ['per_tr1', 'per_tr2']],
    [{ field: 'name', op: 'contains', value: 'ilker' }, ['per_tr1', 'per_tr2']],
    [{ field: 'name', op: 'contains', value: 'İLKER' }, ['per_tr1', 'per_tr2']],
    [{ field: 'name', op: 'prefix', value: 'νικοσ' }, ['per_gr1']],
    [{ field: 'name', op: 'contains', value: 'GROß' }, ['per_de1']],
    [{ field: 'title', op: 'contains', value: 'πωλησεων' }, ['per_gr1']],
    // Skills are stored lowercased as filters lowercase them: a capital İ and a small i are the same letter.
    [{ field: 'skills', op: 'eq', value: 'iş geliştirme' }, ['per_tr1', 'per_tr2']],
    [{ field: 'skills', op: 'contains', value: 'GELİŞ' }, ['per_tr1', 'per_tr2']],
  ] as const)('%j matches %j, as the Query IR documents', async (leaf, want) => {
    const where = leaf as unknown as IRNode;
    expect(expected(where)).toEqual([...want]);
    expect(await idsOf(where)).toEqual([...want]);
  });

  it('searches distinct values as it filters', async () => {
    const cities = (await engine.distinctValues('contact', 'city', 'İST', 10)).map((v) => v.value);
    expect(cities).toEqual(['İstanbul']);
    expect((await engine.distinctValues('contact', 'city', 'ΑΘΉ', 10)).map((v) => v.value)).toEqual(['Αθήνα']);
  });

  it('answers the value-list routes of both families by the same rule, and folds a skill filter as it was stored', async () => {
    const app = await startTestApp({ dataDir: join(dir, 'data'), noSeed: true });
    try {
      const { apiKey } = await app.createAccount('pro');
      const skills = await app.request('GET', `/v1/contacts/schema/skills/values?q=${encodeURIComponent('İŞ')}`, {
        key: apiKey,
      });
      expect(skills.status).toBe(200);
      expect(skills.body.data.values).toEqual([{ value: 'iş geliştirme', label: 'iş geliştirme', count: 2 }]);
      const personas = await app.request(
        'GET',
        `/api/v1/contacts/filter-values?filter=personas&q=${encodeURIComponent('lider')}`,
        { key: apiKey, keyHeader: 'x-api-key' },
      );
      expect(personas.status).toBe(200);
      expect(personas.body.values).toEqual(['SATIŞ LİDERİ']);
      const search = await app.request('POST', '/v1/contacts/search', {
        key: apiKey,
        body: { filter: { skills: ['İş Geliştirme'] }, columns: ['id', 'skills'] },
      });
      expect(search.status).toBe(200);
      expect(search.body.data.map((r: { id: string }) => r.id).sort()).toEqual(['per_tr1', 'per_tr2']);
      expect(search.body.data[0].skills).toEqual(['iş geliştirme']);
    } finally {
      await app.close();
    }
  });
});
