import { BlockList, isIP } from 'node:net';

// Address ranges a server-side fetch must never reach: anything that is not the public internet.
// IPv4 forms written as decimal, hex or octal (http://2130706433/, http://0x7f.1/) are normalised
// to dotted quads by the WHATWG URL parser before they get here.
const BLOCKED_V4: ReadonlyArray<readonly [string, number, string]> = [
  ['0.0.0.0', 8, 'this network'],
  ['10.0.0.0', 8, 'private'],
  ['100.64.0.0', 10, 'carrier-grade NAT'],
  ['127.0.0.0', 8, 'loopback'],
  ['169.254.0.0', 16, 'link-local (cloud metadata)'],
  ['172.16.0.0', 12, 'private'],
  ['192.0.0.0', 24, 'IETF protocol assignments'],
  ['192.0.2.0', 24, 'documentation'],
  ['192.88.99.0', 24, '6to4 relay'],
  ['192.168.0.0', 16, 'private'],
  ['198.18.0.0', 15, 'benchmarking'],
  ['198.51.100.0', 24, 'documentation'],
  ['203.0.113.0', 24, 'documentation'],
  ['224.0.0.0', 4, 'multicast'],
  ['240.0.0.0', 4, 'reserved'],
];

const BLOCKED_V6: ReadonlyArray<readonly [string, number, string]> = [
  ['::', 128, 'unspecified'],
  ['::1', 128, 'loopback'],
  ['100::', 64, 'discard'],
  ['2001::', 32, 'Teredo'],
  ['2001:db8::', 32, 'documentation'],
  ['fc00::', 7, 'unique local (includes fd00::/8 metadata)'],
  ['fe80::', 10, 'link-local'],
  ['fec0::', 10, 'site-local'],
  ['ff00::', 8, 'multicast'],
];

interface Range {
  list: BlockList;
  reason: string;
}

const toRanges = (
  family: 'ipv4' | 'ipv6',
  entries: ReadonlyArray<readonly [string, number, string]>,
): Range[] =>
  entries.map(([network, prefix, reason]) => {
    const list = new BlockList();
    list.addSubnet(network, prefix, family);
    return { list, reason };
  });

const V4_RANGES = toRanges('ipv4', BLOCKED_V4);
const V6_RANGES = toRanges('ipv6', BLOCKED_V6);

/** Expands an IPv6 address (zone id dropped, embedded dotted quad allowed) into 8 hextets. */
export const parseIpv6 = (address: string): number[] | null => {
  let text = address.toLowerCase();
  const zone = text.indexOf('%');
  if (zone >= 0) text = text.slice(0, zone);
  if (isIP(text) !== 6) return null;
  let tail: number[] = [];
  const lastColon = text.lastIndexOf(':');
  const last = text.slice(lastColon + 1);
  if (last.includes('.')) {
    const quad = last.split('.').map(Number);
    tail = [((quad[0] ?? 0) << 8) | (quad[1] ?? 0), ((quad[2] ?? 0) << 8) | (quad[3] ?? 0)];
    text = text.slice(0, lastColon + 1) + '0:0';
  }
  const [head, rest] = text.split('::') as [string, string | undefined];
  const parse = (part: string): number[] => (part === '' ? [] : part.split(':').map((h) => parseInt(h, 16)));
  const left = parse(head);
  const right = rest === undefined ? [] : parse(rest);
  const fill = rest === undefined ? 0 : 8 - left.length - right.length;
  const hextets = [...left, ...new Array<number>(fill).fill(0), ...right];
  if (hextets.length !== 8) return null;
  if (tail.length === 2) {
    hextets[6] = tail[0] ?? 0;
    hextets[7] = tail[1] ?? 0;
  }
  return hextets;
};

const v4FromHextets = (high: number, low: number): string =>
  [high >> 8, high & 0xff, low >> 8, low & 0xff].join('.');

/**
 * The IPv4 address an IPv6 address carries, when it is one of the forms that reach IPv4 hosts:
 * IPv4-mapped (::ffff:a.b.c.d), IPv4-compatible (::a.b.c.d), NAT64 (64:ff9b::/96) and 6to4 (2002::/16).
 */
export const embeddedIpv4 = (address: string): string | null => {
  const h = parseIpv6(address);
  if (!h) return null;
  const [h0, h1, h2, h3, h4, h5, h6, h7] = h as [
    number,
    number,
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const zeroPrefix = h0 === 0 && h1 === 0 && h2 === 0 && h3 === 0 && h4 === 0;
  if (zeroPrefix && h5 === 0xffff) return v4FromHextets(h6, h7);
  if (zeroPrefix && h5 === 0 && (h6 !== 0 || h7 > 1)) return v4FromHextets(h6, h7);
  if (h0 === 0x64 && h1 === 0xff9b && h2 === 0 && h3 === 0 && h4 === 0 && h5 === 0)
    return v4FromHextets(h6, h7);
  if (h0 === 0x2002) return v4FromHextets(h1, h2);
  return null;
};

/** Why an address is not public, or null when it may be fetched. */
export const blockedReason = (address: string): string | null => {
  const family = isIP(address.split('%')[0] ?? '');
  if (family === 4) {
    if (address === '255.255.255.255') return 'broadcast';
    return V4_RANGES.find((r) => r.list.check(address, 'ipv4'))?.reason ?? null;
  }
  if (family === 6) {
    const inner = embeddedIpv4(address);
    if (inner !== null) {
      const reason = blockedReason(inner);
      return reason === null ? null : `${reason} (IPv4 ${inner} inside IPv6)`;
    }
    const bare = address.split('%')[0] ?? address;
    return V6_RANGES.find((r) => r.list.check(bare, 'ipv6'))?.reason ?? null;
  }
  return 'not an IP address';
};

export const isPublicAddress = (address: string): boolean => blockedReason(address) === null;

/**
 * Which private addresses the caller allows anyway: `true` (all: tests and the local sandbox),
 * `false` (none), or a list of addresses and CIDRs such as `127.0.0.1` or `10.0.0.0/8`.
 */
export type PrivateHostAllowance = boolean | readonly string[];

export const compileAllowance = (
  allowance: PrivateHostAllowance | undefined,
): ((address: string) => boolean) => {
  if (allowance === true) return () => true;
  if (!allowance || allowance.length === 0) return () => false;
  const list = new BlockList();
  for (const entry of allowance) {
    const [network = '', prefixText] = entry.trim().split('/');
    const family = isIP(network);
    if (family === 0) throw new Error(`allowPrivateHosts entry "${entry}" is not an IP address or CIDR`);
    const type = family === 4 ? 'ipv4' : 'ipv6';
    if (prefixText === undefined) list.addAddress(network, type);
    else {
      const prefix = Number(prefixText);
      if (!Number.isInteger(prefix) || prefix < 0 || prefix > (family === 4 ? 32 : 128)) {
        throw new Error(`allowPrivateHosts entry "${entry}" has an invalid prefix length`);
      }
      list.addSubnet(network, prefix, type);
    }
  }
  return (address: string) => {
    const bare = address.split('%')[0] ?? address;
    return list.check(bare, isIP(bare) === 4 ? 'ipv4' : 'ipv6');
  };
};

/** Parses the config form of the allowance: "true", "false", "" or a comma-separated list. */
export const parsePrivateHostAllowance = (value: string | undefined): PrivateHostAllowance => {
  const text = (value ?? '').trim().toLowerCase();
  if (text === '' || text === 'false' || text === '0' || text === 'no') return false;
  if (text === 'true' || text === '1' || text === 'yes') return true;
  const entries = text
    .split(',')
    .map((e) => e.trim())
    .filter((e) => e.length > 0);
  compileAllowance(entries);
  return entries;
};
