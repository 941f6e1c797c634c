import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { progressReporter } from '../../../loaders/load/progress.js';
import { seedRelease } from '../../../loaders/seed.js';
import { type Config, ensureSecret, loadConfig } from '../../config.js';
import { systemClock } from '../../domain/clock.js';
import { and, type IRNode, or } from '../../domain/query/ir.js';
import { currentRelease } from '../../engine/duckdb/release-store.js';
import type { SearchEngine } from '../../engine/port.js';
import { openState } from '../../services.js';
import { BUILD_VERSION } from '../../version.js';
import { type CommandSpec, parse } from '../args.js';
import { stateSuppression } from '../suppression.js';
import { checkPortFree, serve } from './serve.js';

export const startSpec: CommandSpec = {
  name: 'start',
  usage: 'cds start [--data DIR] [--port P] [--host H] [--public-url URL]',
  summary:
    'The zero-setup demo (npm start): on an empty data dir generates and loads a demo release and creates a demo ' +
    'account on the pro plan, then serves and prints the API key, base URLs and curl examples. A second start ' +
    'reuses both.',
  options: {
    data: { type: 'string' },
    port: { type: 'string' },
    host: { type: 'string' },
    'public-url': { type: 'string' },
  },
  help:
    'Options (as cds serve):\n  --data DIR        data directory (CDS_DATA_DIR, default ./data)\n  --port P          ' +
    'port (PORT, default 8080; 0 = any free port)\n  --host H          interface (HOST, default 127.0.0.1)\n' +
    '  --public-url URL  base URL used in signed links (CDS_PUBLIC_URL)\nDemo size: CDS_DEMO_CONTACTS (default ' +
    '200000), CDS_DEMO_COMPANIES (default 20000).\n',
};

interface DemoAccount {
  account_id: string;
  api_key: string;
}

/**
 * The demo account's key is kept in DIR/demo-account.json (mode 0600) so every start can print it; the
 * state store itself holds only its hash. Only the demo account is kept this way.
 */
async function ensureDemoAccount(config: Config): Promise<DemoAccount> {
  const file = join(config.dataDir, 'demo-account.json');
  const state = await openState(config, ensureSecret(config));
  try {
    if (existsSync(file)) {
      const saved = JSON.parse(readFileSync(file, 'utf8')) as DemoAccount;
      if (await state.authenticate(saved.api_key, systemClock.now())) return saved;
    }
    const now = systemClock.now();
    const account = await state.createAccount({ name: 'Demo', plan: 'pro', billingDay: null, now });
    const { secret } = await state.createKey(account.id, { name: 'demo', now });
    const demo = { account_id: account.id, api_key: secret };
    writeFileSync(file, `${JSON.stringify(demo)}\n`, { mode: 0o600 });
    chmodSync(file, 0o600);
    return demo;
  } finally {
    await state.close();
  }
}

/** A demo contact the banner's enrichment example finds: its work email and mobile phone. */
export interface DemoContact {
  work_email: string;
  mobile_phone: string;
}

const count = async (engine: SearchEngine, where: IRNode): Promise<number | null> =>
  (await engine.query('contact', where, { countBudgetMs: 2_000 })).count;

/**
 * The first contact of the serving release (in its stable order, opt-outs left out) holding a work email and a
 * mobile phone that no other contact holds, so the example enrichment matches both inputs; null when none of the
 * first few does (or the release is empty).
 */
export async function pickDemoContact(engine: SearchEngine): Promise<DemoContact | null> {
  const where = and({ field: 'work_email', op: 'exists' }, { field: 'mobile_phone', op: 'exists' });
  const { rows } = await engine.query('contact', where, {
    page: { columns: ['work_email', 'mobile_phone'], afterSortKey: null, limit: 20, budgetMs: 5_000 },
  });
  for (const row of rows) {
    const email = row.work_email;
    const phone = row.mobile_phone;
    if (typeof email !== 'string' || typeof phone !== 'string') continue;
    const [emails, phones] = await Promise.all([
      count(engine, { field: 'work_email', op: 'eq', value: email }),
      // Enrichment matches a phone against mobile and direct phones alike.
      count(
        engine,
        or({ field: 'mobile_phone', op: 'eq', value: phone }, { field: 'direct_phone', op: 'eq', value: phone }),
      ),
    ]);
    if (emails === 1 && phones === 1) return { work_email: email, mobile_phone: phone };
  }
  return null;
}

export async function start(argv: string[]): Promise<void> {
  parse(startSpec, argv);
  const config = loadConfig(argv);
  // A taken port is said before a demo release is generated, not after.
  await checkPortFree(config);
  if (!currentRelease(config.dataDir)) {
    process.stdout.write(
      `No data release in ${config.dataDir}: generating the demo release (${config.demoContacts} contacts, ` +
        `${config.demoCompanies} companies)…\n`,
    );
    await seedRelease({
      dataDir: config.dataDir,
      contacts: config.demoContacts,
      companies: config.demoCompanies,
      seed: 42,
      networkHost: config.networkHost,
      onProgress: progressReporter(),
      suppression: await stateSuppression(config),
    });
  }
  const demo = await ensureDemoAccount(config);
  await serve(argv, async (url, services) => {
    const rel = services.engine.release();
    const key = demo.api_key;
    const person = await pickDemoContact(services.engine).catch(() => null);
    process.stdout.write(
      [
        '',
        `Contact Data Service ${BUILD_VERSION} (embedded: DuckDB engine + SQLite state)`,
        `  data      ` +
          `${config.dataDir}${rel ? ` (release ${rel.id}: ${rel.contacts} contacts, ${rel.companies} companies)` : ''}`,
        `  account   ${demo.account_id} (plan pro)`,
        `  API key   ${key}`,
        `  family A  ${url}/v1      (Authorization: Bearer <key>)`,
        `  family B  ${url}/api/v1  (X-API-Key: <key>)`,
        `  MCP       ${url}/mcp     (streamable HTTP, header X-API-Key: <key>)`,
        `  docs      ${url}/docs    (OpenAPI: ${url}/openapi.json)`,
        `  console   ${url}/app     (sign in with the key)`,
        '',
        'Try:',
        `  curl -s ${url}/v1/account -H "Authorization: Bearer ${key}"`,
        `  curl -s ${url}/v1/contacts/count -H "Authorization: Bearer ${key}" -d '{"filter":{"countries":["US"],` +
          `"seniority":["vp"]}}'`,
        `  curl -s ${url}/v1/contacts/search -H "Authorization: Bearer ${key}" -d '{"filter":{"title_query":"head ` +
          `of growth"},"limit":5,"columns":["name","title","company"]}'`,
        `  curl -s ${url}/api/v1/contacts/search -H "X-API-Key: ${key}" -d '{"seniority":["VP"],"employees_min":51,` +
          `"employees_max":500,"limit":5}'`,
        `  curl -s "${url}/v1/contacts/schema/industries/values?q=soft&limit=5" -H "Authorization: Bearer ${key}"`,
        ...(person
          ? [
              `  curl -s ${url}/v1/enrichments -H "Authorization: Bearer ${key}" -d '{"inputs":` +
                `${JSON.stringify([person.work_email, person.mobile_phone]).replaceAll("'", "'\\''")}}'`,
            ]
          : []),
        '',
        'MCP client configuration (e.g. in an mcpServers entry):',
        `  { "url": "${url}/mcp", "headers": { "X-API-Key": "${key}" } }`,
        '',
        'Stop with Ctrl-C.',
        '',
      ].join('\n'),
    );
  });
}
