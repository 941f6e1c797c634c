import { get } from '../api.js';
import { fmt, h, table, when } from '../dom.js';

/** The account's exports, newest first: status, rows, credits, expiry and the signed download link. */
export async function render(view) {
  const rows = (await get('exports')).data;
  if (rows.length === 0) {
    view.append(
      h('p', { class: 'empty' }, 'No exports yet. Build an audience and export it from the Audience builder.'),
    );
    return;
  }
  view.append(
    table(
      `${rows.length} most recent exports`,
      ['Export', 'Status', 'Rows', 'Credits', 'Created', 'Link expires', 'Download'],
      rows.map((x) => [
        h('code', {}, x.export_id),
        x.status,
        x.status === 'completed'
          ? fmt(x.rows_exported)
          : `${fmt(x.rows_exported ?? 0)} of ${fmt(x.rows_to_export ?? 0)}`,
        credits(x),
        when(x.created_at),
        when(x.expires_at),
        x.url ? h('a', { href: x.url, download: '' }, 'CSV') : '—',
      ]),
      { 'data-testid': 'exports' },
    ),
  );
}

/** One contact credit per exported row, charged on completion; held while the export runs. */
function credits(x) {
  if (x.status === 'completed') return `${fmt(x.rows_exported)} charged`;
  if (x.status === 'queued' || x.status === 'running') return `${fmt(x.rows_to_export)} held`;
  return '0';
}
