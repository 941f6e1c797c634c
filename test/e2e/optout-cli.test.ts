import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../src/config.js';
import { sha256Of } from '../../src/domain/optouts.js';
import { openState } from '../../src/services.js';
import { cds } from '../helpers/child-server.js';
import { describeRedis, dropPrefix, REDIS_URL, testPrefix } from '../state/store-factories.js';

/**
 * `cds optout` for the operator: add, remove, list, import and audit over the state store of a data dir (SQLite) or
 * of Redis (CDS_STATE=redis); one JSON line per change, exit codes 0 ok, 1 failed, 2 bad input.
 */

/**
 * Each case runs a dozen `cds` processes one after another; on a loaded machine (CI beside other suites) a process
 * can take seconds to start, so a case gets three minutes instead of jest's default minute.
 */
const cliCase = (name: string, fn: () => Promise<void>): void => it(name, fn, 180_000);

interface Run {
  code: number | null;
  lines: any[];
  err: string;
}

/** `full`: also the cases that do not depend on the adapter (argument checks, file parsing, listing options). */
function suite(name: string, env: () => Record<string, string>, cleanup: () => Promise<void>, full: boolean) {
  describe(name, () => {
    let dir: string;
    beforeEach(() => {
      dir = mkdtempSync(join(tmpdir(), 'cds-optout-'));
    });
    afterEach(async () => {
      rmSync(dir, { recursive: true, force: true });
      await cleanup();
    });

    /** `cds optout …` on the test's data dir, its JSON lines parsed. */
    const run = (args: string[]): Promise<Run> =>
      new Promise((resolve) => {
        const child = cds(['optout', ...args, '--data', dir], env());
        let out = '';
        let err = '';
        child.stdout!.on('data', (b: Buffer) => (out += b.toString()));
        child.stderr!.on('data', (b: Buffer) => (err += b.toString()));
        child.on('exit', (code) =>
          resolve({
            code,
            err,
            lines: out.trim()
              ? out
                  .trim()
                  .split('\n')
                  .map((l) => JSON.parse(l))
              : [],
          }),
        );
      });

    /** What the store holds, read the way a server reads it. */
    const stored = async () => {
      const config = loadConfig(['--data', dir], { ...process.env, ...env() });
      const state = await openState(config, 'any-secret-for-reading-0123456789abcdef');
      try {
        return { entries: await state.allOptOuts(), version: await state.optOutVersion() };
      } finally {
        await state.close();
      }
    };

    cliCase('adds and removes one identifier per call, normalized, printing what changed', async () => {
      expect(await run(['add', '--email', ' Jane@ACME.com '])).toMatchObject({
        code: 0,
        lines: [{ type: 'email', value: 'jane@acme.com', added: 1, already: 0 }],
      });
      expect((await run(['add', '--email', 'jane@acme.com'])).lines).toEqual([
        { type: 'email', value: 'jane@acme.com', added: 0, already: 1 },
      ]);
      expect((await run(['add', '--phone', '+1 415 555 0100'])).lines[0]).toMatchObject({ value: '+14155550100' });
      expect((await run(['add', '--url', 'https://www.network.com/in/Jane-Doe'])).lines[0]).toMatchObject({
        type: 'url',
        value: 'jane-doe',
      });
      expect((await run(['add', '--id', 'per_42'])).lines[0]).toMatchObject({ added: 1 });
      expect((await run(['add', '--sha256', sha256Of('x@y.com')])).lines[0]).toMatchObject({ added: 1 });
      expect((await stored()).entries).toHaveLength(5);

      expect((await run(['remove', '--email', 'JANE@acme.com'])).lines).toEqual([
        { type: 'email', value: 'jane@acme.com', removed: 1, missing: 0 },
      ]);
      expect((await run(['remove', '--email', 'jane@acme.com'])).lines).toEqual([
        { type: 'email', value: 'jane@acme.com', removed: 0, missing: 1 },
      ]);
      const { entries, version } = await stored();
      expect(entries).toHaveLength(4);
      expect(version).toBe(6); // five adds and one removal changed something; the repeats did not
    });

    cliCase('imports hashed lists without ever auditing a hash, and a file of nothing readable exits 2', async () => {
      const hashes = Array.from({ length: 3000 }, (_, i) => sha256Of(`+1415555${String(i).padStart(4, '0')}`));
      const file = join(dir, 'hashed.txt');
      writeFileSync(file, `sha256\n${hashes.join('\n')}\n`);
      const r = await run(['import', '--type', 'sha256', file]);
      expect(r.lines).toEqual([{ type: 'sha256', lines: 3000, header: true, added: 3000, already: 0, rejected: 0 }]);
      const audit = await run(['audit', '--limit', '5']);
      expect(audit.lines).toEqual([
        {
          at: expect.any(String),
          action: 'import',
          actor: expect.stringMatching(/^cli:/),
          type: 'sha256',
          count: 3000,
        },
      ]);
      expect(JSON.stringify(audit.lines)).not.toContain(hashes[0]);

      const wrong = join(dir, 'phones.txt');
      writeFileSync(wrong, '+14155550100\n+14155550101\n');
      const bad = await run(['import', '--type', 'email', wrong]);
      expect(bad.code).toBe(2);
      expect(bad.lines).toEqual([{ type: 'email', lines: 2, header: false, added: 0, already: 0, rejected: 2 }]);
      expect(bad.err).toMatch(/is --type right/);
    });

    // The rest does not depend on the adapter (argument checks, file parsing, listing options): SQLite only.
    if (!full) return;

    cliCase('refuses bad input with exit 2 before it opens the store', async () => {
      const cases: Array<[string[], RegExp]> = [
        [['add', '--email', 'not-an-email'], /--email: not an email address/],
        [['add'], /exactly one of/],
        [['add', '--email', 'a@b.com', '--phone', '+14155550100'], /exactly one of/],
        [['remove', '--url', 'https://www.network.com/company/acme'], /company URL/],
        [['import', 'x.txt'], /needs --type/],
        [['import', '--type', 'fax', 'x.txt'], /--type must be one of/],
        [['import', '--type', 'email'], /needs the FILE/],
        [['import', '--type', 'email', '/nonexistent/optouts.txt'], /cannot read/],
        [['list', '--limit', '0'], /--limit/],
        [['frobnicate'], /unknown action/],
      ];
      const runs = await Promise.all(cases.map(([args]) => run(args)));
      runs.forEach((r, i) => {
        expect({ args: cases[i]![0], code: r.code, lines: r.lines }).toEqual({
          args: cases[i]![0],
          code: 2,
          lines: [],
        });
        expect(r.err).toMatch(cases[i]![1]);
      });
      expect((await stored()).version).toBe(0);
    });

    cliCase('lists in type-then-value order, by type, up to a limit', async () => {
      for (const email of ['b@x.com', 'a@x.com']) await run(['add', '--email', email]);
      await run(['add', '--id', 'per_1']);
      const all = await run(['list']);
      expect(all.code).toBe(0);
      expect(all.lines.map((l) => `${l.type}:${l.value}`)).toEqual(['email:a@x.com', 'email:b@x.com', 'id:per_1']);
      expect(typeof all.lines[0].created_at).toBe('string');
      expect((await run(['list', '--type', 'id'])).lines.map((l) => l.value)).toEqual(['per_1']);
      expect((await run(['list', '--limit', '2'])).lines).toHaveLength(2);
    });

    cliCase(
      'imports a one-column CSV with a header, blank lines, quotes and bad lines, with progress and a report',
      async () => {
        const file = join(dir, 'list.csv');
        const report = join(dir, 'rejects.jsonl');
        writeFileSync(
          file,
          [
            '\uFEFFEmail Address',
            'one@acme.com',
            '',
            '"Two <TWO@acme.com>"',
            'not an email',
            'three@acme.com,',
            '"four@acme.com",extra',
            '  ',
            'ONE@acme.com',
            '"unclosed@acme.com',
            'five@acme.com\r',
          ].join('\n'),
        );
        const r = await run(['import', '--type', 'email', '--report', report, file]);
        expect(r.code).toBe(0);
        expect(r.lines).toEqual([{ type: 'email', lines: 8, header: true, added: 4, already: 1, rejected: 3, report }]);
        expect(r.err).toContain('line 5: not an email address');
        expect(r.err).toContain('line 7: more than one column');
        expect(r.err).toContain('line 10: a quoted cell without its closing quote');
        expect(r.err).toMatch(/write 100%/);
        expect(
          readFileSync(report, 'utf8')
            .trim()
            .split('\n')
            .map((l) => JSON.parse(l).line),
        ).toEqual([5, 7, 10]);
        const emails = (await stored()).entries.map((e) => e.value).sort();
        expect(emails).toEqual(['five@acme.com', 'one@acme.com', 'three@acme.com', 'two@acme.com']);

        const audit = await run(['audit']);
        expect(audit.lines[0]).toMatchObject({ action: 'import', type: 'email', count: 4 });
        expect(audit.lines[0].actor).toMatch(/^cli:/);
      },
    );
  });
}

suite(
  'cds optout (SQLite)',
  () => ({}),
  async () => undefined,
  true,
);

let prefix = testPrefix();
describeRedis('cds optout (Redis)', () => {
  suite(
    'on CDS_STATE=redis',
    () => ({
      CDS_STATE: 'redis',
      REDIS_URL,
      CDS_REDIS_PREFIX: prefix,
      CDS_SECRET: 'optout-cli-test-secret-0123456789abcdef',
    }),
    async () => {
      await dropPrefix(REDIS_URL, prefix);
      prefix = testPrefix();
    },
    false,
  );
});
