import { PAGE_SCRIPT } from './page-script.js';

const STYLE = `
body{font:15px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;margin:0;background:#f5f6f8;color:#1d2330}
main{max-width:960px;margin:0 auto;padding:24px}
h1{font-size:22px;margin:0 0 4px}h2{font-size:17px;margin:0 0 10px}
section{background:#fff;border:1px solid #dde1e7;border-radius:8px;padding:18px;margin:16px 0}
.muted{color:#5b6474;font-size:13px}
#drop{border:2px dashed #9aa5b5;border-radius:8px;padding:28px;text-align:center;background:#fafbfc}
#drop.over{background:#eef4ff;border-color:#3b6fd8}
#url-form{display:flex;gap:8px;margin-top:12px}#url-input{flex:1;padding:7px}
button{background:#2f5fcf;color:#fff;border:0;border-radius:6px;padding:8px 16px;font-size:15px;cursor:pointer}
button:disabled{background:#9aa5b5;cursor:default}
#error{background:#fdecec;border:1px solid #e3a1a1;color:#8a1c1c;padding:10px;border-radius:6px}
.scroll{overflow:auto;max-height:300px}
table{border-collapse:collapse;font-size:13px}th,td{border:1px solid #dde1e7;padding:4px 8px;white-space:nowrap}th{background:#f0f2f5}
#mapping{display:grid;grid-template-columns:repeat(4,1fr);gap:10px;margin:12px 0}
#mapping label{display:flex;flex-direction:column;font-size:13px;gap:3px}
#estimate{background:#f0f6ff;border:1px solid #bcd0f5;padding:10px;border-radius:6px;margin:12px 0}
progress{width:100%;height:18px}
#mapping{grid-template-columns:repeat(4,minmax(0,1fr))}#mapping select,input{max-width:100%;box-sizing:border-box}#url-input{min-width:0}
@media (max-width:640px){main{padding:12px}section{padding:12px}#drop{padding:14px}#url-form{flex-wrap:wrap}#url-input{flex:1 1 100%}#mapping{grid-template-columns:repeat(2,minmax(0,1fr))}}
`;

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** The upload page: three steps (upload, map and estimate, run), drawn by the inline script. */
export function uploadPage(cfg: {
  maxBytes: number;
  maxRows: number;
  fields: Array<{ field: string; label: string }>;
}): string {
  // JSON inside <script type="application/json">: `<` escaped so no text can close the element.
  const json = JSON.stringify(cfg).replace(/</g, '\\u003c');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<meta name="robots" content="noindex"><title>Enrich a spreadsheet — Contact Data Service</title><style>${STYLE}</style></head>
<body><main>
<h1>Enrich a spreadsheet</h1>
<p class="muted">Upload a CSV of people (work emails, phone numbers or profile URLs), check the column mapping and the
cost, then start. One contact credit per matched row; rows that do not match are free.</p>
<div id="error" role="alert" hidden></div>
<section id="step-upload"><h2>1. Choose a file</h2>
<div id="drop"><p>Drop a CSV file here, or <input type="file" id="file-input" accept=".csv,.txt,text/csv"></p>
<p class="muted">CSV up to 15 MB and ${cfg.maxRows.toLocaleString('en-US')} rows; UTF-8 (with or without BOM) or Windows-1252.</p></div>
<form id="url-form"><input id="url-input" type="url" placeholder="…or paste the CSV link of a published online spreadsheet">
<button type="submit" id="url-submit">Read link</button></form>
<p id="busy" class="muted" hidden></p></section>
<section id="step-map" hidden><h2>2. Check the columns</h2>
<p id="file-name" class="muted"></p>
<div class="scroll"><table id="preview"></table></div>
<div id="mapping"></div>
<div id="estimate"></div>
<button id="start" disabled>Start enrichment</button></section>
<section id="step-run" hidden><h2>3. Enrichment run</h2>
<p>Status: <strong id="run-status"></strong></p>
<progress id="progress" max="100" value="0"></progress>
<p id="run-counts"></p>
<p id="run-done" hidden>Done. <a id="run-download" href="#" download>Download the result (CSV)</a> — the link works for one hour; reopen this page for a fresh one. Your assistant can fetch it too.</p></section>
</main>
<script type="application/json" id="cfg">${json}</script>
<script>${PAGE_SCRIPT}</script>
</body></html>`;
}

/** A link that cannot open the page: what happened and what to do, nothing else. */
export function errorPage(message: string, hint: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>Upload link</title><style>${STYLE}</style></head>
<body><main><h1>Enrich a spreadsheet</h1><div id="error" role="alert">${escapeHtml(message)} ${escapeHtml(hint)}</div></main></body></html>`;
}
