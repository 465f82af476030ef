import {
  blockedReason,
  compileAllowance,
  embeddedIpv4,
  isPublicAddress,
  parseIpv6,
  parsePrivateHostAllowance,
} from './address-policy';

describe('address policy', () => {
  it.each([
    '0.0.0.0',
    '10.1.2.3',
    '100.64.0.1',
    '100.127.255.254',
    '127.0.0.1',
    '127.255.255.255',
    '169.254.169.254',
    '172.16.0.1',
    '172.31.255.255',
    '192.0.0.192',
    '192.168.1.1',
    '198.18.0.1',
    '224.0.0.251',
    '239.255.255.250',
    '240.0.0.1',
    '255.255.255.255',
    '::',
    '::1',
    'fc00::1',
    'fd00::1',
    'fd00:ec2::254',
    'fe80::1',
    'fe80::1%eth0',
    'fec0::1',
    'ff02::1',
    '::ffff:127.0.0.1',
    '::ffff:7f00:1',
    '::ffff:a9fe:a9fe',
    '::127.0.0.1',
    '64:ff9b::a00:1',
    '2002:c0a8:0101::1',
    '2001:db8::1',
  ])('refuses %s', (address) => {
    expect(blockedReason(address)).not.toBeNull();
    expect(isPublicAddress(address)).toBe(false);
  });

  it.each([
    '8.8.8.8',
    '93.184.216.34',
    '100.63.255.255',
    '100.128.0.1',
    '172.32.0.1',
    '2606:4700::1111',
    '::ffff:8.8.8.8',
    '64:ff9b::808:808',
  ])('allows public %s', (address) => {
    expect(blockedReason(address)).toBeNull();
  });

  // Every class an admin URL or a redirect may not reach, with the reason it is named by.
  it.each([
    ['169.254.169.254', 'link-local (cloud metadata)'],
    ['169.254.0.1', 'link-local (cloud metadata)'],
    ['fd00:ec2::254', 'unique local (includes fd00::/8 metadata)'],
    ['fd00::', 'unique local (includes fd00::/8 metadata)'],
    ['fdff:ffff:ffff:ffff:ffff:ffff:ffff:ffff', 'unique local (includes fd00::/8 metadata)'],
    ['100.64.0.0', 'carrier-grade NAT'],
    ['100.127.255.255', 'carrier-grade NAT'],
    ['0.0.0.0', 'this network'],
    ['0.1.2.3', 'this network'],
    ['::', 'unspecified'],
    ['10.0.0.1', 'private'],
    ['172.16.0.1', 'private'],
    ['192.168.0.1', 'private'],
    ['127.0.0.1', 'loopback'],
    ['::1', 'loopback'],
    ['fe80::1', 'link-local'],
    ['224.0.0.1', 'multicast'],
    ['ff02::1', 'multicast'],
    ['::ffff:10.0.0.1', 'private (IPv4 10.0.0.1 inside IPv6)'],
    ['::ffff:0a00:0001', 'private (IPv4 10.0.0.1 inside IPv6)'],
    ['::ffff:169.254.169.254', 'link-local (cloud metadata) (IPv4 169.254.169.254 inside IPv6)'],
    ['::ffff:100.64.0.1', 'carrier-grade NAT (IPv4 100.64.0.1 inside IPv6)'],
    ['::ffff:0.0.0.0', 'this network (IPv4 0.0.0.0 inside IPv6)'],
    ['::ffff:127.0.0.1', 'loopback (IPv4 127.0.0.1 inside IPv6)'],
  ])('refuses %s as %s', (address, reason) => {
    expect(blockedReason(address)).toBe(reason);
  });

  it('names the reason, including for IPv4 hidden inside IPv6', () => {
    expect(blockedReason('169.254.169.254')).toContain('metadata');
    expect(blockedReason('::ffff:10.0.0.1')).toBe('private (IPv4 10.0.0.1 inside IPv6)');
    expect(blockedReason('not-an-ip')).toBe('not an IP address');
  });

  it('expands IPv6 and extracts embedded IPv4', () => {
    expect(parseIpv6('2001:db8::1')).toEqual([0x2001, 0xdb8, 0, 0, 0, 0, 0, 1]);
    expect(parseIpv6('::ffff:1.2.3.4')).toEqual([0, 0, 0, 0, 0, 0xffff, 0x0102, 0x0304]);
    expect(parseIpv6('1.2.3.4')).toBeNull();
    expect(embeddedIpv4('::ffff:c0a8:101')).toBe('192.168.1.1');
    expect(embeddedIpv4('2002:0a00:0001::')).toBe('10.0.0.1');
    expect(embeddedIpv4('::1')).toBeNull();
    expect(embeddedIpv4('2606:4700::1111')).toBeNull();
  });

  it('compiles allowances from booleans, addresses and CIDRs', () => {
    expect(compileAllowance(false)('127.0.0.1')).toBe(false);
    expect(compileAllowance(undefined)('127.0.0.1')).toBe(false);
    expect(compileAllowance(true)('10.0.0.1')).toBe(true);
    const some = compileAllowance(['127.0.0.1', '10.0.0.0/8', '::1']);
    expect(some('127.0.0.1')).toBe(true);
    expect(some('127.0.0.2')).toBe(false);
    expect(some('10.200.0.1')).toBe(true);
    expect(some('::1')).toBe(true);
    expect(some('169.254.169.254')).toBe(false);
    expect(() => compileAllowance(['localhost'])).toThrow('not an IP address or CIDR');
    expect(() => compileAllowance(['10.0.0.0/40'])).toThrow('invalid prefix length');
  });

  it('parses the configuration form', () => {
    expect(parsePrivateHostAllowance(undefined)).toBe(false);
    expect(parsePrivateHostAllowance('false')).toBe(false);
    expect(parsePrivateHostAllowance('TRUE')).toBe(true);
    expect(parsePrivateHostAllowance('127.0.0.1, ::1')).toEqual(['127.0.0.1', '::1']);
    expect(() => parsePrivateHostAllowance('127.0.0.1,intranet')).toThrow('intranet');
  });
});
