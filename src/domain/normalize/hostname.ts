import { domainToASCII } from 'node:url';

const LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

/** A dotted DNS name of ASCII labels whose last label is not all digits (so IP addresses are not domains). */
export function isHostname(host: string): boolean {
  if (host.length > 253 || !host.includes('.')) return false;
  const labels = host.split('.');
  if (!labels.every((l) => LABEL.test(l))) return false;
  return !/^\d+$/.test(labels[labels.length - 1]!);
}

/** Lowercase ASCII (punycode) form of a host; '' when an internationalized name is not valid. */
export function asciiHost(host: string): string {
  const lower = host.toLowerCase();
  return /[^\x20-\x7e]/.test(lower) ? domainToASCII(lower) : lower;
}
