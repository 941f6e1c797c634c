import { get } from '../api.js';
import { fmt, h, table, when } from '../dom.js';

/** Uploads (the CSV enrichment runs) and signals (collect jobs and alerts) of the account, with their status. */
export async function render(view) {
  const { uploads, collects, alerts } = (await get('activity')).data;
  view.append(
    section(
      'Uploads',
      uploads.length
        ? table(
            null,
            ['Run', 'Upload', 'Status', 'Rows', 'Matched', 'Credits', 'Created', 'Finished'],
            uploads.map((u) => [
              h('code', {}, u.id),
              u.upload_page
                ? h('a', { href: u.upload_page }, u.file_name ?? u.upload_id)
                : (u.file_name ?? u.upload_id),
              u.status === 'completed' ? h('a', { href: '/app/enrich' }, 'completed: result on Enrichment') : u.status,
              `${fmt(u.processed_rows)} of ${fmt(u.rows)}`,
              fmt(u.matched_rows),
              `${fmt(u.credits_charged)} charged`,
              when(u.created_at),
              when(u.finished_at),
            ]),
            { 'data-testid': 'uploads' },
          )
        : h('p', { class: 'empty', 'data-testid': 'uploads-empty' }, 'No CSV enrichment runs on this account.'),
    ),
    section(
      'Signal collects',
      collects.length
        ? table(
            null,
            ['Job', 'Kind', 'Target', 'Status', 'Signals', 'Leads', 'Premium credits', 'Created'],
            collects.map((c) => [
              h('code', {}, c.id),
              c.kind ?? '—',
              c.target ?? '—',
              c.status,
              fmt(c.signals ?? 0),
              fmt(c.leads ?? 0),
              c.premium_credits
                ? `${fmt(c.premium_credits.charged)} charged, ${fmt(c.premium_credits.held)} held`
                : '—',
              when(c.created_at),
            ]),
            { 'data-testid': 'collects' },
          )
        : h('p', { class: 'empty' }, 'No signal collects yet.'),
    ),
    section(
      'Alerts',
      alerts.length
        ? table(
            null,
            ['Alert', 'Kind', 'Target', 'Active', 'Last run', 'Next run', 'Last error'],
            alerts.map((a) => [
              h('code', {}, a.id),
              a.kind,
              a.target,
              a.active ? 'yes' : 'no',
              when(a.last_run_at),
              when(a.next_run_at),
              a.last_error ?? '—',
            ]),
            { 'data-testid': 'alerts' },
          )
        : h('p', { class: 'empty' }, 'No alerts.'),
    ),
  );
}

function section(title, body) {
  return h('section', { class: 'card' }, h('h2', {}, title), body);
}
