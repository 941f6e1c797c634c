import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { examplesOf } from '../../src/operations/examples/index.js';
import { OPERATIONS } from '../../src/operations/index.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

/** Pinned so the lint result does not move under us; npx serves it from its cache once fetched. */
const REDOCLY = '@redocly/cli@2.77.0';

let app: TestApp;
let doc: any;
beforeAll(async () => {
  app = await startTestApp({ contacts: 300, companies: 50 });
  const res = await app.request('GET', '/openapi.json');
  expect(res.status).toBe(200);
  doc = res.body;
});
afterAll(async () => app.close());

const toOpenApiPath = (p: string) => p.replace(/:([A-Za-z_]\w*)/g, '{$1}');

describe('GET /openapi.json', () => {
  it('is OpenAPI 3.1 served without a key, with the envelopes as components', () => {
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.servers[0].url).toBe(app.url);
    expect(Object.keys(doc.components.schemas)).toEqual(
      expect.arrayContaining(['SuccessEnvelope', 'ErrorEnvelope', 'Error', 'Quota', 'Page', 'Warning']),
    );
    expect(doc.components.securitySchemes.bearerAuth).toMatchObject({ type: 'http', scheme: 'bearer' });
  });

  it('has every operation with its method, path, security and parameters', () => {
    for (const op of OPERATIONS) {
      const path = toOpenApiPath(op.path);
      const o = doc.paths[path]?.[op.method.toLowerCase()];
      expect({ op: op.name, found: o !== undefined }).toEqual({ op: op.name, found: true });
      expect(o.operationId).toBe(op.name);
      expect(o.summary).toBe(op.summary);
      expect(o['x-cost']).toBe(op.cost);
      const schemes = (o.security as Record<string, unknown>[]).flatMap((s) => Object.keys(s));
      if (op.auth === 'none') expect(o.security).toEqual([]);
      else if (op.auth === 'operator') expect(schemes).toEqual(['operatorToken']);
      else if (op.family === 'A') expect(schemes).toEqual(['bearerAuth']);
      else expect(schemes).toEqual(['apiKeyHeader', 'bearerAuth']);
      if (op.auth === 'optional') expect(o.security).toContainEqual({});
      for (const name of [...op.path.matchAll(/:(\w+)/g)].map((m) => m[1])) {
        expect(o.parameters).toContainEqual(expect.objectContaining({ name, in: 'path', required: true }));
      }
      if (op.method === 'GET') expect(o.requestBody).toBeUndefined();
      if (op.mcp) expect(o['x-mcp-tool']).toBe(op.mcp.tool);
      expect(o.responses['401'] !== undefined).toBe(op.auth !== 'none');
    }
    const count = Object.values(doc.paths).reduce((n: number, item: any) => n + Object.keys(item).length, 0);
    expect(count).toBe(OPERATIONS.length);
  });

  it('GET inputs are query parameters; POST bodies carry the valibot schema', () => {
    const values = doc.paths['/v1/contacts/schema/{column}/values'].get;
    expect(values.parameters).toContainEqual(
      expect.objectContaining({
        name: 'limit',
        in: 'query',
        required: false,
        schema: expect.objectContaining({ type: 'integer', maximum: 1000 }),
      }),
    );
    const search = doc.paths['/v1/contacts/search'].post;
    expect(search.requestBody.content['application/json'].schema.properties.limit).toMatchObject({
      type: 'integer',
      minimum: 1,
      maximum: 1000,
      default: 100,
    });
    expect(search.responses['402']['x-error-codes']).toEqual(['contact_credits.exhausted']);
    const success = search.responses['2XX'].content['application/json'].schema;
    expect(success.allOf[0]).toEqual({ $ref: '#/components/schemas/SuccessEnvelope' });
    expect(success.allOf[1].properties.data).toMatchObject({
      type: 'array',
      items: { type: 'object', required: ['id'] },
    });
  });

  it("publishes every operation's examples, each valid against its schema in the document", () => {
    // JSON Schema 2020-12 (OpenAPI 3.1's dialect); ajv comes with the MCP SDK. The document is one schema whose
    // parts are reached by JSON pointer, so the components' $refs resolve.
    const ajv = new Ajv2020({ strict: false, validateFormats: false, allErrors: false });
    ajv.addSchema(doc, 'openapi');
    const ptr = (...parts: string[]) => parts.map((p) => p.replace(/~/g, '~0').replace(/\//g, '~1')).join('/');
    const failures: string[] = [];
    const check = (where: string, pointer: string, value: unknown) => {
      const validate = ajv.compile({ $ref: `openapi#/${pointer}` });
      if (!validate(value)) failures.push(`${where}: ${ajv.errorsText(validate.errors)}`);
    };
    for (const op of OPERATIONS) {
      const path = toOpenApiPath(op.path);
      const method = op.method.toLowerCase();
      const o = doc.paths[path][method];
      const answers = o.responses['2XX'].content['application/json'].examples;
      expect({ op: op.name, answers: Object.keys(answers ?? {}).length }).toEqual({
        op: op.name,
        answers: examplesOf(op).length,
      });
      for (const [name, ex] of Object.entries(answers) as [string, { value: unknown }][])
        check(
          `${op.name} answer ${name}`,
          ptr('paths', path, method, 'responses', '2XX', 'content', 'application/json', 'schema'),
          ex.value,
        );
      const bodies = o.requestBody?.content['application/json'].examples ?? {};
      if (examplesOf(op).some((ex) => ex.request.body)) expect(Object.keys(bodies).length).toBeGreaterThan(0);
      for (const [name, ex] of Object.entries(bodies) as [string, { value: unknown }][])
        check(
          `${op.name} body ${name}`,
          ptr('paths', path, method, 'requestBody', 'content', 'application/json', 'schema'),
          ex.value,
        );
      (o.parameters as any[]).forEach((p, i) => {
        for (const [name, ex] of Object.entries(p.examples ?? {}) as [string, { value: unknown }][])
          check(
            `${op.name} ${p.name} ${name}`,
            ptr('paths', path, method, 'parameters', String(i), 'schema'),
            ex.value,
          );
      });
    }
    expect(failures).toEqual([]);
  });

  it('passes the Redocly linter with no errors', () => {
    const dir = mkdtempSync(join(tmpdir(), 'cds-openapi-'));
    try {
      writeFileSync(join(dir, 'openapi.json'), JSON.stringify(doc));
      const run = spawnSync(
        'npx',
        ['--yes', REDOCLY, 'lint', '--format', 'json', '--max-problems', '1000', 'openapi.json'],
        {
          cwd: dir,
          encoding: 'utf8',
          timeout: 180_000,
        },
      );
      const out = `${run.stdout}`;
      const start = out.indexOf('{');
      if (run.error || start < 0) {
        console.warn(
          `SKIPPED: Redocly lint (${REDOCLY}) could not run here: ` +
            `${run.error?.message ?? run.stderr.split('\n').filter(Boolean).slice(-2).join(' ')}`,
        );
        return;
      }
      const report = JSON.parse(out.slice(start)) as {
        totals: { errors: number; warnings: number };
        problems: { ruleId: string; severity: string; message: string }[];
      };
      expect(report.problems.filter((p) => p.severity === 'error')).toEqual([]);
      expect(report.totals.errors).toBe(0);
      // The published examples conform to their schemas by Redocly's reading too (objects closed unless said open).
      expect(report.problems.filter((p) => /example/.test(p.ruleId))).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('GET /docs', () => {
  it('is a self-contained page listing every route by family, with costs and error codes', async () => {
    const res = await fetch(`${app.url}/docs`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/text\/html/);
    expect(res.headers.get('content-security-policy')).toContain("script-src 'self'");
    const html = await res.text();
    // One script, the page's own: it fills in a key passed in the fragment (docs-key.ts).
    expect(html.match(/<script[^>]*>/gi)).toEqual(['<script src="/docs/key.js">']);
    expect(html).not.toMatch(/(src|href)="https?:/i);
    for (const op of OPERATIONS) {
      expect(html).toContain(`id="${op.name}"`);
      expect(html).toContain(`<code>${toOpenApiPath(op.path)}</code>`);
    }
    expect(html).toContain('Family A (v1)');
    expect(html).toContain('<code>contact_credits.exhausted</code>');
    expect(html).toContain('one contact credit per returned contact');
  });

  it('shows per operation a curl command of its example, and a tools/call for MCP tools', async () => {
    const html = await (await fetch(`${app.url}/docs`)).text();
    const unhtml = (s: string) =>
      s.replace(
        /&(amp|lt|gt|quot|#39);/g,
        (_, e: string) => ({ amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'" })[e]!,
      );
    for (const op of OPERATIONS) {
      const start = html.indexOf(`<article id="${op.name}">`);
      const article = html.slice(start, html.indexOf('</article>', start));
      const curls = [...article.matchAll(/<code data-snippet="curl">([^<]*)<\/code>/g)].map((m) => unhtml(m[1]!));
      expect({ op: op.name, curls: curls.length }).toEqual({ op: op.name, curls: examplesOf(op).length });
      const ex = examplesOf(op)[0]!;
      const curl = curls[0]!;
      expect(curl).toContain(
        `curl -sS -X ${op.method} '${app.url}${toOpenApiPath(op.path).replace(/\{(\w+)\}/g, (_, n: string) => encodeURIComponent(String(ex.request.params?.[n])))}`,
      );
      if (op.auth === 'operator') expect(curl).toContain('Bearer $CDS_ADMIN_TOKEN');
      else if (op.auth === 'none') expect(curl).not.toContain('$CDS_API_KEY');
      else
        expect(curl).toContain(
          op.family === 'A' ? '"Authorization: Bearer $CDS_API_KEY"' : '"X-API-Key: $CDS_API_KEY"',
        );
      if (ex.request.body) expect(curl).toContain(`-d '${JSON.stringify(ex.request.body).replace(/'/g, "'\\''")}'`);
      const mcp = [...article.matchAll(/<code data-snippet="mcp">([^<]*)<\/code>/g)].map((m) => unhtml(m[1]!));
      expect(mcp.length).toBe(op.mcp ? curls.length : 0);
      if (op.mcp) {
        const message = JSON.parse(/-d '(.*)'$/s.exec(mcp[0]!)![1]!);
        expect(message).toEqual({
          jsonrpc: '2.0',
          id: 1,
          method: 'tools/call',
          params: { name: op.mcp.tool, arguments: { ...ex.request.params, ...ex.request.query, ...ex.request.body } },
        });
      }
    }
  });

  it('serves its script, which reads the key from the fragment only', async () => {
    const res = await fetch(`${app.url}/docs/key.js`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/javascript/);
    const js = await res.text();
    expect(js).toContain('location.hash');
    expect(js).not.toMatch(/fetch\(|XMLHttpRequest|sendBeacon|localStorage/);
  });
});
