import type { JsonSchema } from '../../face/json-schema.js';
import type { OpenApiDocument, OpenApiOperation } from './document.js';
import { curlCommand, mcpCurlCommand, type SnippetAuth } from './snippets.js';

/**
 * GET /docs: the OpenAPI document rendered as one self-contained HTML page (no external assets; the page is
 * generated from the same document as /openapi.json, so the two cannot disagree). Each operation shows its
 * examples as a curl command and, for MCP tools, a `tools/call`; the one script (/docs/key.js, docs-key.ts) fills
 * in the API key a console link passes in the fragment.
 */
export function renderDocsPage(doc: OpenApiDocument): string {
  const info = doc.info as { title: string; version: string; description: string };
  const tags = (doc.tags as { name: string; description: string }[]) ?? [];
  const ops: { path: string; method: string; op: OpenApiOperation; server: string }[] = [];
  const server = String((doc.servers as { url: string }[] | undefined)?.[0]?.url ?? '').replace(/\/$/, '');
  for (const [path, item] of Object.entries(doc.paths))
    for (const [method, op] of Object.entries(item)) ops.push({ path, method, op, server });
  const sections = tags.map((tag) => {
    const mine = ops.filter((o) => (o.op.tags as string[])[0] === tag.name);
    const toc = mine
      .map(
        (o) =>
          `<li><a href="#${esc(o.op.operationId)}"><span class="m ${o.method}">${o.method.toUpperCase()}</span> ` +
          `<code>${esc(o.path)}</code></a> ${esc(String(o.op.summary))}</li>`,
      )
      .join('');
    return (
      `<section><h2 id="${slug(tag.name)}">${esc(tag.name)}</h2><p>${esc(tag.description)}</p><ul ` +
      `class="toc">${toc}</ul>${mine.map(renderOperation).join('')}</section>`
    );
  });
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(info.title)} ${esc(info.version)}: API reference</title>
<style>${CSS}</style></head>
<body><header><h1>${esc(info.title)} <small>${esc(info.version)}</small></h1><p>${esc(info.description)}</p>
<p>Machine-readable: <a href="/openapi.json">/openapi.json</a> (OpenAPI 3.1). Family A: <code>Authorization: Bearer &lt;API_KEY&gt;</code>. Family B and MCP: <code>X-API-Key: &lt;API_KEY&gt;</code> or the Bearer form.</p>
<p id="key-note">The examples read the key from the shell: <code>export CDS_API_KEY=…</code> (or open this page from the console's Integrations page to have your new key filled in).</p>
<nav>${tags.map((t) => `<a href="#${slug(t.name)}">${esc(t.name)}</a>`).join(' · ')}</nav></header>
<main>${sections.join('')}</main><script src="/docs/key.js"></script></body></html>
`;
}

function renderOperation(o: { path: string; method: string; op: OpenApiOperation; server: string }): string {
  const { op } = o;
  const params = ((op.parameters as Record<string, unknown>[]) ?? []).filter((p) => !('$ref' in p)) as {
    name: string;
    in: string;
    required: boolean;
    schema: JsonSchema;
  }[];
  const body = (op.requestBody as { content: Record<string, { schema: JsonSchema }> } | undefined)?.content[
    'application/json'
  ]?.schema;
  const security =
    op.security.length === 0
      ? 'no key'
      : op.security
          .map(
            (s) =>
              Object.keys(s)
                .map((k) => AUTH_LABEL[k] ?? k)
                .join(' + ') || 'no key needed',
          )
          .join(', or ');
  const success = JSON.stringify(op.responses).includes('FamilyBBody')
    ? 'family B body: ok, request_id, release and the route fields'
    : 'success envelope: ok, request_id, release, data, page (paged routes), quota, warnings';
  const errorRows = Object.entries(op.responses as Record<string, { 'x-error-codes'?: string[] }>)
    .filter(([status]) => /^[45]/.test(status))
    .map(
      ([status, r]) =>
        `<tr><td>${status}</td><td>${(r['x-error-codes'] ?? []).map((c) => `<code>${esc(c)}</code>`).join(', ')}</td></tr>`,
    )
    .join('');
  return `<article id="${esc(op.operationId)}">
<h3><span class="m ${o.method}">${o.method.toUpperCase()}</span> <code>${esc(o.path)}</code> ${esc(String(op.summary))}</h3>
${paragraphs(String(op.description).replace(/\n\nCost: [^\n]*/, ''))}
<dl><dt>Cost</dt><dd>${esc(String(op['x-cost']))}</dd><dt>Auth</dt><dd>${esc(security)}</dd>${op['x-mcp-tool'] ? `<dt>MCP tool</dt><dd><code>${esc(String(op['x-mcp-tool']))}</code></dd>` : ''}<dt>Answer</dt><dd>${esc(success)}</dd><dt>Operation id</dt><dd><code>${esc(op.operationId)}</code></dd></dl>
${params.length ? `<h4>Parameters</h4>${table(params.map((p) => ({ name: p.name, where: p.in, required: p.required, schema: p.schema })))}` : ''}
${body && Object.keys((body.properties as object) ?? {}).length ? `<h4>Request body (application/json)</h4>${schemaTable(body)}` : ''}
${renderExamples(o)}
<h4>Errors (error envelope)</h4><table><thead><tr><th>Status</th><th>Codes</th></tr></thead><tbody>${errorRows}</tbody></table>
</article>`;
}

interface ExampleObject {
  summary?: string;
  description?: string;
  value: unknown;
}

/**
 * The operation's examples, put back together from the document: the answer examples name them, and the
 * parameters and request body carry their values under the same names.
 */
function renderExamples(o: { path: string; method: string; op: OpenApiOperation; server: string }): string {
  const { op } = o;
  const responses = (op.responses as Record<string, { content?: Record<string, { examples?: object }> }>)['2XX'];
  const answers = (responses?.content?.['application/json']?.examples ?? {}) as Record<string, ExampleObject>;
  const params = ((op.parameters as Record<string, unknown>[]) ?? []).filter((p) => !('$ref' in p)) as {
    name: string;
    in: string;
    examples?: Record<string, ExampleObject>;
  }[];
  const bodies = ((op.requestBody as { content: Record<string, { examples?: object }> } | undefined)?.content[
    'application/json'
  ]?.examples ?? {}) as Record<string, ExampleObject>;
  const tool = op['x-mcp-tool'] as string | undefined;
  const out = Object.entries(answers).map(([key, answer]) => {
    const args: Record<string, unknown> = {};
    const query = new URLSearchParams();
    let path = o.path;
    for (const p of params) {
      const ex = p.examples?.[key];
      if (!ex) continue;
      args[p.name] = ex.value;
      if (p.in === 'path') path = path.replace(`{${p.name}}`, encodeURIComponent(String(ex.value)));
      else query.set(p.name, Array.isArray(ex.value) ? ex.value.join(',') : String(ex.value));
    }
    const body = bodies[key]?.value;
    if (body && typeof body === 'object') Object.assign(args, body);
    const qs = query.toString();
    const curl = curlCommand({
      method: o.method,
      server: o.server,
      path: qs ? `${path}?${qs}` : path,
      auth: snippetAuth(op),
      ...(body !== undefined ? { body } : {}),
    });
    return (
      `<h5>${esc(answer.summary ?? key)}</h5><pre><code data-snippet="curl">${esc(curl)}</code></pre>` +
      (tool
        ? `<p class="c">MCP <code>tools/call</code> of <code>${esc(tool)}</code>:</p><pre><code data-snippet="mcp">${esc(mcpCurlCommand(o.server, tool, args))}</code></pre>`
        : '') +
      `<details><summary>Answer (${esc(answer.description ?? '')})</summary><pre><code>${esc(JSON.stringify(answer.value, null, 2))}</code></pre></details>`
    );
  });
  return out.length ? `<h4>Examples</h4>${out.join('')}` : '';
}

/** How an operation's curl is signed: no key, the operator token, family A's Bearer or family B's X-API-Key. */
function snippetAuth(op: OpenApiOperation): SnippetAuth {
  const schemes = new Set(op.security.flatMap((s) => Object.keys(s)));
  if (schemes.has('operatorToken')) return 'operator';
  if (schemes.has('apiKeyHeader')) return 'x-api-key';
  if (schemes.has('bearerAuth')) return 'bearer';
  return 'none';
}

const AUTH_LABEL: Record<string, string> = {
  bearerAuth: 'Authorization: Bearer <API_KEY>',
  apiKeyHeader: 'X-API-Key: <API_KEY>',
  operatorToken: 'Authorization: Bearer <CDS_ADMIN_TOKEN> (operator)',
};

function schemaTable(schema: JsonSchema): string {
  const required = new Set((schema.required as string[] | undefined) ?? []);
  const props = (schema.properties ?? {}) as Record<string, JsonSchema>;
  return table(
    Object.entries(props).map(([name, s]) => ({ name, where: 'body', required: required.has(name), schema: s })),
  );
}

function table(rows: { name: string; where: string; required: boolean; schema: JsonSchema }[]): string {
  const body = rows
    .map(
      (r) =>
        `<tr><td><code>${esc(r.name)}</code></td><td>${esc(r.where)}</td><td>${esc(typeOf(r.schema))}</td><td>${r.required ? 'yes' : 'no'}</td><td>${esc(String(r.schema.description ?? ''))}${constraints(r.schema)}</td></tr>`,
    )
    .join('');
  return `<table><thead><tr><th>Name</th><th>In</th><th>Type</th><th>Required</th><th>Meaning</th></tr></thead><tbody>${body}</tbody></table>`;
}

export function typeOf(s: JsonSchema): string {
  if (Array.isArray(s.enum)) return `enum ${s.enum.map((v) => JSON.stringify(v)).join(' | ')}`;
  if (Array.isArray(s.anyOf)) return (s.anyOf as JsonSchema[]).map(typeOf).join(' | ');
  if (s.type === 'array') return `array of ${s.items ? typeOf(s.items as JsonSchema) : 'any'}`;
  if (Array.isArray(s.type)) return s.type.join(' | ');
  return typeof s.type === 'string' ? s.type : 'any';
}

function constraints(s: JsonSchema): string {
  const c: string[] = [];
  const names: [string, string][] = [
    ['minimum', 'min'],
    ['maximum', 'max'],
    ['minLength', 'min length'],
    ['maxLength', 'max length'],
    ['minItems', 'min items'],
    ['maxItems', 'max items'],
    ['pattern', 'pattern'],
  ];
  for (const [k, label] of names) if (s[k] !== undefined) c.push(`${label} ${String(s[k])}`);
  if (s.default !== undefined) c.push(`default ${JSON.stringify(s.default)}`);
  return c.length ? ` <span class="c">(${esc(c.join('; '))})</span>` : '';
}

function paragraphs(text: string): string {
  return text
    .split(/\n\n+/)
    .map((p) => `<p>${esc(p).replace(/`([^`]+)`/g, '<code>$1</code>')}</p>`)
    .join('');
}

function slug(s: string): string {
  return s
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
}

function esc(s: string): string {
  return s.replace(/[&<>"']/g, (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[ch]!);
}

const CSS = `body{font:15px/1.5 system-ui,sans-serif;margin:0;color:#1b1f24;background:#fafafa}header,main{max-width:980px;margin:0 auto;padding:0 20px}
header{padding-top:20px}h1 small{font-weight:normal;color:#666;font-size:60%}nav a{margin-right:4px}
section{border-top:2px solid #ddd;margin-top:24px}article{background:#fff;border:1px solid #e3e3e3;border-radius:6px;padding:4px 16px 10px;margin:16px 0}
h3{font-size:17px}code{font:13px ui-monospace,monospace;background:#f0f0f0;padding:1px 4px;border-radius:3px}
.m{display:inline-block;min-width:58px;text-align:center;color:#fff;border-radius:4px;font:bold 12px monospace;padding:2px 0}
.get{background:#2b7a3d}.post{background:#1f5fa8}.delete{background:#b3261e}.patch{background:#8a5a00}
table{border-collapse:collapse;width:100%;font-size:14px;margin:6px 0}th,td{border:1px solid #e3e3e3;padding:4px 6px;text-align:left;vertical-align:top}th{background:#f4f4f4}
dl{display:grid;grid-template-columns:max-content 1fr;gap:2px 12px}dt{font-weight:600}dd{margin:0}.c{color:#666}ul.toc{columns:2}
pre{background:#f6f6f6;border:1px solid #e3e3e3;border-radius:4px;padding:8px;overflow-x:auto}pre code{background:none;padding:0}h5{font-size:14px;margin:10px 0 4px}
td,th,dd,p,li,h3,h4{overflow-wrap:anywhere}pre{white-space:pre-wrap;overflow-wrap:anywhere}dd,pre,table{min-width:0}
@media (max-width:640px){header,main{padding:0 10px}article{padding:4px 10px 10px}ul.toc{columns:1}dl{grid-template-columns:minmax(0,1fr)}dt{margin-top:6px}table{font-size:13px}th,td{padding:3px 4px}}`;
