import { call } from './api.js';
import { clear, errorText, fmt, h, when } from './dom.js';

/**
 * Pieces several console pages share: the quote a spend shows before it runs (a dry run of the same call), the
 * cost line after it (the answer's quota block), a row drawer, a small line chart and the credits-exhausted notice.
 */

/** The quote of a dry run: `data` (or the body, for operations that answer it at the top). */
export const quoteOf = (res) => (res?.data && typeof res.data === 'object' && 'dry_run' in res.data ? res.data : res);

/**
 * Asks what `name(input)` would cost now (dry_run: true), shows it in `box` with a confirm button, and runs the call
 * when the person confirms. Resolves with the real answer, or undefined when cancelled or refused.
 */
export function quoteThenRun(box, name, input, what) {
  return new Promise((resolve) => {
    const done = (v) => {
      resolve(v);
    };
    clear(box, h('p', { class: 'muted' }, 'Asking what it costs…'));
    call(name, { ...input, dry_run: true }, 'POST')
      .then((res) => {
        const q = quoteOf(res);
        const credits = q.contact_credits ?? q.premium_credits ?? 0;
        const kind = q.premium_credits !== undefined ? 'premium' : 'contact';
        const go = h('button', { type: 'button', 'data-testid': 'quote-confirm' }, `Yes, ${what}`);
        const cancel = h('button', { type: 'button', class: 'secondary' }, 'Cancel');
        clear(
          box,
          h(
            'div',
            { class: 'quote', 'data-testid': 'quote', 'data-credits': credits, 'data-available': q.available },
            h(
              'p',
              { class: 'quote-text' },
              `This costs up to ${fmt(credits)} ${kind} credits (${fmt(q.units)} ${q.units === 1 ? 'item' : 'items'}); `,
              `${fmt(q.available)} available now.`,
              q.sufficient ? '' : ' Not enough credits for all of it.',
            ),
            q.sufficient ? null : exhausted({ hint: resetText(q), pool: isPool(q) }),
            h('div', { class: 'row' }, go, cancel),
          ),
        );
        cancel.addEventListener('click', () => {
          clear(box);
          done(undefined);
        });
        go.addEventListener('click', async () => {
          go.disabled = true;
          cancel.disabled = true;
          try {
            const real = await call(name, input, 'POST');
            clear(box, spentLine(real));
            done(real);
          } catch (e) {
            clear(box, failure(e));
            done(undefined);
          }
        });
      })
      .catch((e) => {
        clear(box, failure(e));
        done(undefined);
      });
  });
}

/** A quote's reset: far in the future (or none) on the free pool, which never comes back. */
const isPool = (q) => !q.resets_at || String(q.resets_at).startsWith('9999');
const resetText = (q) => (isPool(q) ? 'The lifetime pool is spent.' : `Credits come back at ${when(q.resets_at)}.`);

/** After a spend: what it cost and what is left (the answer's quota block). */
export function spentLine(res) {
  const q = res.quota ?? {};
  const spent = q.contact_credits_used ?? q.premium_credits_used ?? 0;
  return h(
    'p',
    { class: 'spent', 'data-testid': 'spent', 'data-spent': spent },
    `${fmt(spent)} credits spent; ${fmt(q.today_remaining)} left${q.binding ? ` (${q.binding} window)` : ''}.`,
  );
}

/** An error; a 402 (credits exhausted) says what to do next. */
export function failure(e) {
  if (e?.status === 402) {
    // The error's details name the window that is spent and when it resets (far in the future on the free pool).
    const q = { resets_at: e.details?.resets_at };
    const pool = e.details?.binding === 'pool' || isPool(q);
    return exhausted({ message: e.message, hint: e.hint ?? resetText(q), pool });
  }
  return h('p', { class: 'error', role: 'alert' }, errorText(e));
}

/** Credits exhausted: what happened, when they come back and what to do now. */
export function exhausted(e) {
  return h(
    'div',
    { class: 'notice', role: 'alert', 'data-testid': 'credits-exhausted' },
    h('strong', {}, 'Out of credits. '),
    e?.message && e.message !== 'HTTP 402' ? `${e.message} ` : '',
    e?.hint ? `${e.hint} ` : '',
    'What you can do: counting and building audiences stay free; ',
    e?.pool
      ? 'the free pool does not come back, so ask the operator for a paid plan.'
      : [
          'credits come back at the reset (see ',
          h('a', { href: '/app' }, 'Overview'),
          '), or ask the operator for a larger plan.',
        ],
  );
}

/**
 * A drawer (a modal <dialog>) with every field of one row by its label; Escape or the button closes it and focus
 * returns where it was.
 */
export function openDrawer(title, pairs) {
  const dialog = h('dialog', { class: 'drawer', 'aria-labelledby': 'drawer-title', 'data-testid': 'row-detail' });
  const close = h('button', { type: 'button', class: 'secondary', 'data-testid': 'drawer-close' }, 'Close');
  close.addEventListener('click', () => dialog.close());
  dialog.addEventListener('close', () => dialog.remove());
  dialog.append(
    h('div', { class: 'drawer-head' }, h('h2', { id: 'drawer-title' }, title), close),
    h(
      'dl',
      { class: 'facts' },
      pairs.map(([label, value, name]) => [h('dt', {}, label), h('dd', { 'data-column': name }, value)]),
    ),
  );
  document.body.append(dialog);
  dialog.showModal();
  return dialog;
}

/** A cell's text: lists joined, records as compact JSON, empty as a dash. */
export function cellText(v) {
  if (v === null || v === undefined || v === '') return '—';
  if (Array.isArray(v)) return v.map((x) => (typeof x === 'object' ? JSON.stringify(x) : String(x))).join(', ');
  if (typeof v === 'object') return JSON.stringify(v);
  if (typeof v === 'boolean') return v ? 'yes' : 'no';
  return String(v);
}

const SVG = 'http://www.w3.org/2000/svg';
function s(tag, attrs = {}, ...children) {
  const el = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  for (const c of children) el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  return el;
}

/** Counts per release as a small line chart with a point per release, and the same figures as a list. */
export function historyChart(points) {
  const W = 320;
  const H = 120;
  const pad = 24;
  const max = Math.max(1, ...points.map((p) => p.count));
  const x = (i) => (points.length === 1 ? W / 2 : pad + (i * (W - 2 * pad)) / (points.length - 1));
  const y = (c) => H - pad - (c / max) * (H - 2 * pad);
  const svg = s('svg', {
    viewBox: `0 0 ${W} ${H}`,
    class: 'history',
    role: 'img',
    'aria-label': `Count per data release: ${points.map((p) => `${p.release} ${fmt(p.count)}`).join(', ')}`,
  });
  svg.append(s('line', { x1: pad, y1: H - pad, x2: W - pad, y2: H - pad, class: 'axis' }));
  if (points.length > 1)
    svg.append(
      s('polyline', { points: points.map((p, i) => `${x(i)},${y(p.count)}`).join(' '), class: 'history-line' }),
    );
  points.forEach((p, i) => {
    svg.append(
      s(
        'circle',
        { cx: x(i), cy: y(p.count), r: 4, class: 'history-point', 'data-release': p.release, 'data-count': p.count },
        s('title', {}, `${p.release}: ${fmt(p.count)}`),
      ),
    );
    svg.append(s('text', { x: x(i), y: y(p.count) - 8, class: 'tick', 'text-anchor': 'middle' }, fmt(p.count)));
  });
  return h(
    'figure',
    { class: 'history-box', 'data-testid': 'history' },
    svg,
    h(
      'ol',
      { class: 'history-list' },
      points.map((p) =>
        h('li', {}, h('code', {}, p.release), `: ${fmt(p.count)} contacts (counted ${when(p.counted_at)})`),
      ),
    ),
  );
}
