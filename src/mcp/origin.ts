import type { Context } from 'koa';
import { AppError } from '../domain/errors/index.js';

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * Origin validation against DNS rebinding (MCP transport rules, ARCHITECTURE rule 10). No Origin header
 * (agents, CLIs, servers) is accepted. With an empty allow-list only loopback origins are; a configured
 * list (CDS_MCP_ORIGINS) replaces that default and must name every accepted origin exactly.
 */
export function originAllowed(origin: string | undefined, allowList: readonly string[]): boolean {
  if (origin === undefined || origin === '') return true;
  const normalized = normalizeOrigin(origin);
  if (!normalized) return false;
  if (allowList.length > 0) return allowList.some((o) => normalizeOrigin(o) === normalized);
  const url = new URL(normalized);
  return LOOPBACK.has(url.hostname);
}

/** scheme://host[:port] in lowercase with the default port dropped; undefined for `null` or anything else. */
export function normalizeOrigin(origin: string): string | undefined {
  try {
    const url = new URL(origin.trim());
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
    return url.origin.toLowerCase();
  } catch {
    return undefined;
  }
}

export function checkOrigin(ctx: Pick<Context, 'get'>, allowList: readonly string[]): void {
  const origin = ctx.get('Origin') || undefined;
  if (originAllowed(origin, allowList)) return;
  throw new AppError('request.origin_refused', `Origin ${origin} is not allowed to call the MCP server.`, {
    field: 'header.Origin',
    hint: allowList.length
      ? 'Call from an allowed origin, or ask the operator to add it to CDS_MCP_ORIGINS.'
      : 'Only loopback origins are accepted; the operator can allow others with CDS_MCP_ORIGINS.',
  });
}
