import { BlockList, isIP } from 'node:net';

/**
 * Addresses a spreadsheet link may not reach (server-side request forgery): loopback, private, carrier-grade NAT,
 * link-local (which holds the cloud metadata address 169.254.169.254), multicast, reserved and documentation
 * ranges, and their IPv6 forms (IPv4-mapped and NAT64 addresses are judged by the IPv4 address they carry; the
 * IPv4-compatible, IPv4-translated, local NAT64, 6to4 and Teredo ranges, which carry or reach an IPv4 address by other
 * means, are refused whole).
 */
const BLOCKED = new BlockList();
for (const [net, bits] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  BLOCKED.addSubnet(net, bits, 'ipv4');
for (const [net, bits] of [
  ['::', 96],
  ['::ffff:0:0:0', 96],
  ['64:ff9b:1::', 48],
  ['2002::', 16],
  ['2001::', 32],
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
  ['2001:db8::', 32],
  ['100::', 64],
] as const)
  BLOCKED.addSubnet(net, bits, 'ipv6');

/** The IPv4 address inside an IPv4-mapped (::ffff:a.b.c.d) or NAT64 (64:ff9b::a.b.c.d) IPv6 address. */
function embeddedV4(ip: string): string | null {
  const lower = ip.toLowerCase();
  const m = /^(?:::ffff:|64:ff9b::)(?:0{1,4}:)?([0-9.]+)$/.exec(lower);
  if (m && isIP(m[1]!) === 4) return m[1]!;
  const hex = /^(?:::ffff:|64:ff9b::)([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(lower);
  if (!hex) return null;
  const a = Number.parseInt(hex[1]!, 16);
  const b = Number.parseInt(hex[2]!, 16);
  return `${a >> 8}.${a & 255}.${b >> 8}.${b & 255}`;
}

/** Whether a resolved address is one a server-side fetch may connect to; `allow` lists test-only exceptions. */
export function isPublicAddress(ip: string, allow: readonly string[] = []): boolean {
  if (allow.includes(ip)) return true;
  const family = isIP(ip);
  if (family === 0) return false;
  if (family === 4) return !BLOCKED.check(ip, 'ipv4');
  const v4 = embeddedV4(ip);
  if (v4) return allow.includes(v4) || !BLOCKED.check(v4, 'ipv4');
  return !BLOCKED.check(ip, 'ipv6');
}
