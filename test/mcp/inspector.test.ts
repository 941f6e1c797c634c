import { execFile } from 'node:child_process';
import { MCP_ONLY_OPERATIONS, OPERATIONS } from '../../src/operations/index.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

/** The official MCP Inspector CLI (docs/mcp.md), pinned; fetched by npx, skipped visibly when it cannot be. */
const INSPECTOR = '@modelcontextprotocol/inspector@2.12.0';

let app: TestApp;
let key: string;
beforeAll(async () => {
  app = await startTestApp({ contacts: 200, companies: 30 });
  key = (await app.createAccount('pro')).apiKey;
});
afterAll(async () => app.close());

interface Run {
  /** false when npx could not fetch or start the Inspector (offline registry): the test is skipped, visibly. */
  launched: boolean;
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs the Inspector CLI asynchronously: the app under test serves from this same process. */
function inspector(args: string[]): Promise<Run> {
  const argv = [
    '--yes',
    INSPECTOR,
    '--cli',
    `${app.url}/mcp`,
    '--transport',
    'http',
    '--header',
    `X-API-Key: ${key}`,
    ...args,
  ];
  return new Promise((resolve) => {
    execFile(
      'npx',
      argv,
      { encoding: 'utf8', timeout: 180_000, maxBuffer: 16 * 1024 * 1024 },
      (err, stdout, stderr) => {
        const code = err ? (typeof err.code === 'number' ? err.code : -1) : 0;
        const launched = !(err && typeof err.code !== 'number') && !/npm (ERR!|error)/.test(stderr);
        resolve({ launched, code, stdout, stderr });
      },
    );
  });
}

function skipped(res: Run): boolean {
  if (res.launched) return false;
  console.warn(
    `SKIPPED: ${INSPECTOR} could not be fetched or started by npx: ${res.stderr
      .split('\n')
      .filter((l) => l && !/EBADENGINE|npm warn/.test(l))
      .slice(-2)
      .join(' ')}`,
  );
  return true;
}

describe('MCP Inspector CLI against the running app', () => {
  it('tools/list --strict lists every generated tool with no schema portability error', async () => {
    const res = await inspector(['--method', 'tools/list', '--strict']);
    if (skipped(res)) return;
    expect({ code: res.code, stderr: res.code === 0 ? '' : res.stderr }).toEqual({ code: 0, stderr: '' });
    const listed = (
      JSON.parse(res.stdout) as {
        tools: { name: string; inputSchema: Record<string, any>; outputSchema?: Record<string, any> }[];
      }
    ).tools;
    // The schemas come through whole: the typed filter with its where $defs, and an output schema on every tool.
    for (const t of listed)
      expect({ name: t.name, output: t.outputSchema?.type }).toEqual({ name: t.name, output: 'object' });
    const count = listed.find((t) => t.name === 'count_matches')!;
    expect(Object.keys(count.inputSchema.properties.filter.properties)).toEqual(
      expect.arrayContaining(['countries', 'seniority', 'where']),
    );
    expect(count.inputSchema.$defs.where_contact_4).toBeDefined();
    const names = listed.map((t) => t.name).sort();
    expect(names).toEqual(
      [...OPERATIONS, ...MCP_ONLY_OPERATIONS]
        .filter((op) => op.mcp)
        .map((op) => op.mcp!.tool)
        .sort(),
    );
  });

  it('tools/call count_matches with a JSON argument', async () => {
    const res = await inspector([
      '--method',
      'tools/call',
      '--tool-name',
      'count_matches',
      '--tool-arg',
      'filter={"countries":["us"]}',
    ]);
    if (skipped(res)) return;
    expect(res.code).toBe(0);
    const out = JSON.parse(res.stdout) as { isError?: boolean; structuredContent: { data: { count: number } } };
    const rest = await app.request('POST', '/v1/contacts/count', { key, body: { filter: { countries: ['us'] } } });
    expect(out.isError).toBeUndefined();
    expect(out.structuredContent.data.count).toBe(rest.body.data.count);
  });
});
