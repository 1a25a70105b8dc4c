import { BlockList, isIP } from 'node:net';

/**
 * Addresses a webhook may not reach when the operator forbids private endpoints (against
 * server-side request forgery): loopback, RFC 1918 and carrier-grade NAT, link-local (cloud
 * metadata), "this network", unique-local and IPv4-mapped forms of them.
 */
const PRIVATE = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.168.0.0', 16],
] as const) {
  PRIVATE.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
] as const) {
  PRIVATE.addSubnet(network, prefix, 'ipv6');
}

const MAPPED_IPV4 = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i;

/** Whether an IP address (v4 or v6 text) is on a loopback or private network. */
export function isPrivateAddress(address: string): boolean {
  const mapped = MAPPED_IPV4.exec(address);
  if (mapped) return isPrivateAddress(mapped[1]!);
  const family = isIP(address);
  if (family === 4) return PRIVATE.check(address, 'ipv4');
  if (family === 6) return PRIVATE.check(address, 'ipv6');
  return false;
}

/** The host of a URL as an address when it is one (brackets of IPv6 removed), else null. */
export function literalAddress(hostname: string): string | null {
  const bare = hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
  return isIP(bare) === 0 ? null : bare;
}

export const PRIVATE_ENDPOINT_MESSAGE = 'Endpoints on loopback or private networks are not allowed.';
