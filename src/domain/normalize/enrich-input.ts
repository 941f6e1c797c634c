import { parseEmail } from './email.js';
import { parseNetworkUrl } from './network-url.js';
import { normalizePhone } from './phone.js';

export type EnrichInput =
  | { kind: 'email'; value: string }
  | { kind: 'phone'; value: string }
  | { kind: 'network'; value: string }
  | { kind: 'invalid' };

/** What one enrichment input is: a work email, a person profile URL (value = slug), a phone (E.164), or invalid. */
export function classifyEnrichInput(input: string, host: string): EnrichInput {
  const email = parseEmail(input);
  if (email) return { kind: 'email', value: email };
  const url = parseNetworkUrl(input, host);
  // Only a person profile identifies a contact; company and post URLs are not enrichment inputs.
  if (url) return url.kind === 'person' ? { kind: 'network', value: url.slug } : { kind: 'invalid' };
  const phone = normalizePhone(input);
  return phone ? { kind: 'phone', value: phone } : { kind: 'invalid' };
}
