/**
 * Which hosts a page fetch may contact. The model chooses the URLs, so a fetch must not reach the
 * machine running the benchmark or its network: loopback, private, link-local (cloud metadata
 * endpoints), CGNAT, multicast and reserved ranges are refused, for IP literals and for every
 * address a hostname resolves to, on the first request and on every redirect.
 */
import { lookup as dnsLookup } from 'node:dns/promises';
import { BlockList, isIP, type LookupFunction } from 'node:net';

/** Resolve a hostname to all its addresses (node:dns `lookup` with `all: true` by default). */
export type HostResolver = (hostname: string) => Promise<readonly string[]>;

/** The default resolver: the system resolver, every address, in the order it gives them. */
export const resolveWithDns: HostResolver = async (hostname) =>
  (await dnsLookup(hostname, { all: true, verbatim: true })).map((entry) => entry.address);

/**
 * Which private addresses a fetch may still contact: none (`false`, the default), all (`true`,
 * for a trusted network) or exactly the listed addresses (tests serving pages on 127.0.0.1).
 */
export type PrivateAddressPolicy = boolean | readonly string[];

interface Range {
  readonly label: string;
  readonly list: BlockList;
}

function range(label: string, subnets: readonly (readonly [string, number, 'ipv4' | 'ipv6'])[]): Range {
  const list = new BlockList();
  for (const [network, prefix, family] of subnets) list.addSubnet(network, prefix, family);
  return { label, list };
}

/** The refused ranges, each named for the refusal text. BlockList matches IPv4-mapped IPv6 against IPv4 rules. */
const REFUSED_RANGES: readonly Range[] = [
  range('loopback', [
    ['127.0.0.0', 8, 'ipv4'],
    ['::1', 128, 'ipv6'],
  ]),
  range('unspecified', [
    ['0.0.0.0', 8, 'ipv4'],
    ['::', 128, 'ipv6'],
  ]),
  range('private', [
    ['10.0.0.0', 8, 'ipv4'],
    ['172.16.0.0', 12, 'ipv4'],
    ['192.168.0.0', 16, 'ipv4'],
    ['fc00::', 7, 'ipv6'],
  ]),
  range('link-local', [
    ['169.254.0.0', 16, 'ipv4'],
    ['fe80::', 10, 'ipv6'],
  ]),
  range('shared (CGNAT)', [['100.64.0.0', 10, 'ipv4']]),
  range('multicast', [
    ['224.0.0.0', 4, 'ipv4'],
    ['ff00::', 8, 'ipv6'],
  ]),
  range('reserved', [
    ['192.0.0.0', 24, 'ipv4'],
    ['192.0.2.0', 24, 'ipv4'],
    ['198.18.0.0', 15, 'ipv4'],
    ['198.51.100.0', 24, 'ipv4'],
    ['203.0.113.0', 24, 'ipv4'],
    ['240.0.0.0', 4, 'ipv4'],
    ['fec0::', 10, 'ipv6'],
    ['100::', 64, 'ipv6'],
    ['2001:db8::', 32, 'ipv6'],
  ]),
];

/** The refused range an address falls in (its label), or undefined for a public address. */
export function refusedRangeOf(address: string): string | undefined {
  const family = isIP(address);
  if (family === 0) return 'invalid';
  const type = family === 4 ? 'ipv4' : 'ipv6';
  for (const { label, list } of REFUSED_RANGES) if (list.check(address, type)) return label;
  if (family === 6) {
    // IPv4 embedded in NAT64 (64:ff9b::/96), 6to4 (2002::/16) and IPv4-compatible (::/96) addresses
    // reach that IPv4 host; judge them by it.
    const embedded = embeddedIpv4(address);
    if (embedded !== undefined) return refusedRangeOf(embedded);
  }
  return undefined;
}

/** The 8 groups of an IPv6 address (zone id dropped), or undefined when it is not one. */
function ipv6Groups(address: string): number[] | undefined {
  let text = address.split('%')[0]!;
  let tail: number[] = [];
  const dotted = /^(.*:)(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (dotted !== null) {
    const bytes = dotted.slice(2).map(Number);
    if (bytes.some((b) => b > 255)) return undefined;
    tail = [(bytes[0]! << 8) | bytes[1]!, (bytes[2]! << 8) | bytes[3]!];
    // Keep a `::` that ends the hex part; drop the single `:` before the dotted quad otherwise.
    text = dotted[1]!.endsWith('::') ? dotted[1]! : dotted[1]!.slice(0, -1);
  }
  const parts = text.split('::');
  if (parts.length > 2) return undefined;
  const parse = (part: string): number[] =>
    part === '' ? [] : part.split(':').map((g) => (/^[0-9a-f]{1,4}$/i.test(g) ? Number.parseInt(g, 16) : Number.NaN));
  const left = parse(parts[0]!);
  const right = [...(parts.length === 2 ? parse(parts[1]!) : []), ...tail];
  const missing = 8 - left.length - right.length;
  if (parts.length === 2 ? missing < 1 : missing !== 0) return undefined;
  const groups = [...left, ...new Array<number>(missing).fill(0), ...right];
  return groups.every((g) => !Number.isNaN(g)) ? groups : undefined;
}

/** The IPv4 address a NAT64, 6to4 or IPv4-compatible IPv6 address embeds, or undefined. */
function embeddedIpv4(address: string): string | undefined {
  const g = ipv6Groups(address);
  if (g === undefined) return undefined;
  const v4 = (hi: number, lo: number): string => `${hi >> 8}.${hi & 0xff}.${lo >> 8}.${lo & 0xff}`;
  const zeros = (from: number, to: number): boolean => g.slice(from, to).every((x) => x === 0);
  if (g[0] === 0x64 && g[1] === 0xff9b && zeros(2, 6)) return v4(g[6]!, g[7]!);
  if (g[0] === 0x2002) return v4(g[1]!, g[2]!);
  if (zeros(0, 6) && (g[6] !== 0 || g[7]! > 1)) return v4(g[6]!, g[7]!);
  return undefined;
}

/** Whether `address` may be contacted under `policy`. */
function allowedByPolicy(address: string, policy: PrivateAddressPolicy): boolean {
  if (policy === true) return true;
  if (policy === false) return false;
  return policy.includes(address);
}

/** The result of checking a URL or a host's addresses: fine, or refused with the reason. */
export type TargetCheck = { readonly kind: 'allowed' } | { readonly kind: 'refused'; readonly message: string };

const ALLOWED: TargetCheck = { kind: 'allowed' };

/**
 * The checks that need no DNS: http(s) only; an IP-literal host or `localhost` must not be in a
 * refused range (unless the policy allows it). A hostname passes here and is checked when it is
 * resolved, by `createGuardedLookup`.
 */
export function checkUrlTarget(url: URL, policy: PrivateAddressPolicy): TargetCheck {
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return { kind: 'refused', message: `refused: only http:// and https:// URLs are fetched, not ${url.protocol}//` };
  }
  if (policy === true) return ALLOWED;
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  if (isIP(host) !== 0) return checkAddresses(host, [host], policy);
  if (host === 'localhost' || host.endsWith('.localhost')) {
    return { kind: 'refused', message: `refused: ${host} is this machine (bfcl-ts fetches only public addresses)` };
  }
  return ALLOWED;
}

/** Every address `host` resolved to must be public (or allowed by the policy). */
export function checkAddresses(host: string, addresses: readonly string[], policy: PrivateAddressPolicy): TargetCheck {
  for (const address of addresses) {
    const label = refusedRangeOf(address);
    if (label === undefined || allowedByPolicy(address, policy)) continue;
    const where = address === host ? address : `${host} (${address})`;
    const article = /^[aeiou]/.test(label) ? 'an' : 'a';
    return { kind: 'refused', message: `refused: ${where} is ${article} ${label} address (bfcl-ts fetches only public addresses)` };
  }
  return ALLOWED;
}

/** The error a guarded lookup fails with when the policy refuses the host's addresses. */
export class RefusedAddressError extends Error {
  readonly code = 'EADDRREFUSED_BY_POLICY';
}

/**
 * A `lookup` for node:http(s) requests that resolves the host, refuses it when any of its
 * addresses is in a refused range, and otherwise connects to exactly the addresses it checked: the
 * check and the connection use one DNS answer, so a rebinding name cannot slip past it.
 */
export function createGuardedLookup(policy: PrivateAddressPolicy, resolve: HostResolver): LookupFunction {
  return (hostname, options, callback) => {
    resolve(hostname).then(
      (addresses) => {
        if (addresses.length === 0) {
          callback(Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' }), '', 0);
          return;
        }
        const check = checkAddresses(hostname, addresses, policy);
        if (check.kind === 'refused') {
          callback(new RefusedAddressError(check.message), '', 0);
          return;
        }
        const wanted = options.family === 4 || options.family === 6 ? addresses.filter((a) => isIP(a) === options.family) : addresses;
        const usable = wanted.length > 0 ? wanted : addresses;
        if (options.all === true) callback(null, usable.map((address) => ({ address, family: isIP(address) })));
        else callback(null, usable[0]!, isIP(usable[0]!));
      },
      (error: unknown) => callback(error instanceof Error ? error : new Error(String(error)), '', 0),
    );
  };
}
