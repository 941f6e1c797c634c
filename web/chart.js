import { fmt, h } from './dom.js';

const SVG = 'http://www.w3.org/2000/svg';
const LABELS = { search: 'Search', export: 'Export', enrich: 'Enrich', lookups: 'Lookups', signals: 'Signals' };

function s(tag, attrs = {}, ...children) {
  const el = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  for (const c of children) el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  return el;
}

/**
 * Credits spent per day over the days given, stacked by line (search, export, enrich, lookups, signals; contact and
 * premium credits together), as an SVG drawn without inline styles, with a legend and the same figures as a table.
 */
export function usageChart({ days, lines, records }) {
  const per = new Map(days.map((d) => [d, Object.fromEntries(lines.map((l) => [l, 0]))]));
  for (const r of records) {
    const day = per.get(r.day);
    if (day) day[r.line] = (day[r.line] ?? 0) + r.credits;
  }
  const totals = days.map((d) => lines.reduce((sum, l) => sum + per.get(d)[l], 0));
  const max = Math.max(1, ...totals);
  const W = 900;
  const H = 200;
  const left = 40;
  const bottom = 20;
  const bw = (W - left) / days.length;
  const svg = s('svg', {
    viewBox: `0 0 ${W} ${H + bottom}`,
    class: 'chart',
    role: 'img',
    'aria-label': `Credits spent per day, last ${days.length} days: ${fmt(totals.reduce((a, b) => a + b, 0))} in all`,
  });
  svg.append(s('line', { x1: left, y1: H, x2: W, y2: H, class: 'axis' }));
  svg.append(s('text', { x: left - 4, y: 10, class: 'tick', 'text-anchor': 'end' }, fmt(max)));
  svg.append(s('text', { x: left - 4, y: H, class: 'tick', 'text-anchor': 'end' }, '0'));
  days.forEach((day, i) => {
    let y = H;
    for (const line of lines) {
      const v = per.get(day)[line];
      if (!v) continue;
      const bh = (v / max) * (H - 10);
      y -= bh;
      svg.append(
        s(
          'rect',
          { x: left + i * bw + 1, y, width: Math.max(1, bw - 2), height: bh, class: `bar ${line}` },
          s('title', {}, `${day} ${LABELS[line] ?? line}: ${fmt(v)}`),
        ),
      );
    }
    if ((days.length - 1 - i) % 7 === 0)
      svg.append(
        s(
          'text',
          {
            x: left + i * bw + bw / 2,
            y: H + 14,
            class: 'tick',
            'text-anchor': i === days.length - 1 ? 'end' : 'middle',
            ...(i === days.length - 1 ? { 'data-today': day } : {}),
          },
          i === days.length - 1 ? 'today' : day.slice(5),
        ),
      );
  });
  const legend = h(
    'ul',
    { class: 'legend' },
    lines.map((l) => h('li', {}, h('span', { class: `swatch ${l}`, 'aria-hidden': 'true' }), LABELS[l] ?? l)),
  );
  const rows = days
    .map((d, i) => [d, ...lines.map((l) => fmt(per.get(d)[l])), fmt(totals[i])])
    .filter((_, i) => totals[i] > 0);
  const data = h(
    'details',
    {},
    h('summary', {}, 'Figures'),
    rows.length
      ? h(
          'div',
          { class: 'table-wrap' },
          h(
            'table',
            { 'data-testid': 'usage-table' },
            h(
              'thead',
              {},
              h(
                'tr',
                {},
                ['Day', ...lines.map((l) => LABELS[l] ?? l), 'Total'].map((t) => h('th', { scope: 'col' }, t)),
              ),
            ),
            h(
              'tbody',
              {},
              rows.map((r) =>
                h(
                  'tr',
                  {},
                  r.map((c) => h('td', {}, c)),
                ),
              ),
            ),
          ),
        )
      : h('p', { class: 'muted' }, 'Nothing spent in these days.'),
  );
  const scroll = h('div', { class: 'chart-scroll', 'data-testid': 'chart-scroll' }, svg);
  // On a narrow screen the chart scrolls in its box: it opens at its right end, where today is.
  const toToday = () => {
    scroll.scrollLeft = scroll.scrollWidth;
  };
  requestAnimationFrame(toToday);
  new ResizeObserver(toToday).observe(scroll);
  return h('figure', { class: 'chart-box' }, scroll, legend, data);
}
