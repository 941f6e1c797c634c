import { loadSession, signOut } from './api.js';
import { clear, errorText, h } from './dom.js';

/** Boots a console page: loads the session, wires sign-out and draws the page's view. */
const PAGES = {
  '/app': () => import('./pages/overview.js'),
  '/app/integrations': () => import('./pages/integrations.js'),
  '/app/audience': () => import('./pages/audience.js'),
  '/app/audiences': () => import('./pages/audiences.js'),
  '/app/companies': () => import('./pages/companies.js'),
  '/app/enrich': () => import('./pages/enrich.js'),
  '/app/exports': () => import('./pages/exports.js'),
  '/app/activity': () => import('./pages/activity.js'),
  '/app/logs': () => import('./pages/logs.js'),
  '/app/webhooks': () => import('./pages/webhooks.js'),
};

async function boot() {
  const view = document.getElementById('view');
  document.getElementById('sign-out')?.addEventListener('click', () => signOut());
  // On a phone the navigation is one row that scrolls sideways: the current page's link is kept in it (at load and
  // whenever the row's width changes; only the row scrolls, never the page).
  const nav = document.querySelector('.top nav');
  const current = nav?.querySelector('[aria-current="page"]');
  if (nav instanceof HTMLElement && current instanceof HTMLElement) {
    const center = () => {
      nav.scrollLeft = current.offsetLeft - nav.offsetLeft - (nav.clientWidth - current.offsetWidth) / 2;
    };
    center();
    // The row's own size, not only the window's: the header also changes width once the session's details load.
    new ResizeObserver(center).observe(nav);
  }
  try {
    const session = await loadSession();
    const page = await PAGES[document.body.dataset.page]?.();
    clear(view);
    await page?.render(view, session);
    document.body.dataset.ready = 'true';
  } catch (e) {
    clear(view, h('p', { class: 'error', role: 'alert' }, errorText(e)));
  }
}

boot();
