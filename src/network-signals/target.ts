import { AppError } from '../domain/errors/index.js';
import { type NetworkUrlKind, parseNetworkUrl } from '../domain/normalize/index.js';
import type { SignalKind, SignalTarget } from './port.js';

const FITS: Record<SignalKind, readonly NetworkUrlKind[]> = {
  network_profile: ['person'],
  network_post: ['post', 'activity'],
  network_company: ['company'],
};

/** The accepted URL forms of a kind, for hints. */
export function targetForms(kind: SignalKind, host: string): string {
  const h = bare(host);
  switch (kind) {
    case 'network_profile':
      return `https://${h}/in/<slug>`;
    case 'network_post':
      return `https://${h}/posts/<slug> or https://${h}/feed/update/urn:li:activity:<id>`;
    case 'network_company':
      return `https://${h}/company/<slug>`;
  }
}

function bare(host: string): string {
  return host
    .trim()
    .toLowerCase()
    .replace(/^www\./, '');
}

/** The canonical URL of a target: one spelling per profile, post or company, so alerts and rows compare equal. */
export function canonicalTargetUrl(kind: NetworkUrlKind, slug: string, host: string): string {
  const h = bare(host);
  const s = encodeURIComponent(slug).replace(/%3A/gi, ':');
  switch (kind) {
    case 'person':
      return `https://${h}/in/${s}`;
    case 'company':
      return `https://${h}/company/${s}`;
    case 'post':
      return `https://${h}/posts/${s}`;
    case 'activity':
      return `https://${h}/feed/update/urn:li:activity:${slug}`;
  }
}

/**
 * Validates a collect or alert target: an https URL on the configured network host (a `www.` or
 * two-letter country subdomain is accepted) of the form the kind takes. Anything else answers 400
 * request.invalid with the accepted form in the hint.
 */
export function parseSignalTarget(kind: SignalKind, target: string, host: string, field = 'target'): SignalTarget {
  const hint = `A ${kind} target looks like ${targetForms(kind, host)}.`;
  const trimmed = target.trim();
  const parsed = /^https:\/\//i.test(trimmed) ? parseNetworkUrl(trimmed, host) : undefined;
  if (!parsed)
    throw new AppError('request.invalid', `target is not a profile, post or company URL on ${bare(host)}.`, {
      field,
      hint,
    });
  if (!FITS[kind].includes(parsed.kind)) {
    const fitting = (Object.keys(FITS) as SignalKind[]).find((k) => FITS[k].includes(parsed.kind));
    throw new AppError('request.invalid', `target is a ${parsed.kind} URL, which does not fit kind ${kind}.`, {
      field,
      hint: `${hint}${fitting ? ` For this URL send kind ${fitting}.` : ''}`,
    });
  }
  return { kind, url: canonicalTargetUrl(parsed.kind, parsed.slug, host), slug: parsed.slug };
}
