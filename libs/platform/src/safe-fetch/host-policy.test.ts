import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { BlockedAddressError, HostNotAllowedError } from './errors';
import { compileHostRules, hostPortOf, parseHostList, parseHostRule } from './host-policy';
import { safeFetch, type SafeFetchOptions } from './safe-fetch';

const TWILIO = ['api.twilio.com', 'media.twiliocdn.com', '*.twiliocdn.com'];

describe('host allowlist rules', () => {
  const allowed = compileHostRules(TWILIO);

  it.each([
    'https://api.twilio.com/2010-04-01/Accounts/AC1/Messages/MM1/Media/ME1',
    'https://API.Twilio.com/x',
    'https://media.twiliocdn.com/AC1/abc',
    'https://mms.twiliocdn.com/AC1/abc',
    'https://a.b.twiliocdn.com/x',
    'http://api.twilio.com/x',
  ])('allows %s', (url) => {
    expect(allowed(new URL(url))).toBe(true);
  });

  it.each([
    'https://twiliocdn.com/x',
    'https://api.twilio.com.evil.example/x',
    'https://eviltwiliocdn.com/x',
    'https://api.twilio.com:8443/x',
    'http://169.254.169.254/latest/meta-data/',
    'http://10.0.0.1/',
    'http://127.0.0.1:6379/',
    'http://localhost/',
    'http://[::1]/',
  ])('refuses %s', (url) => {
    expect(allowed(new URL(url))).toBe(false);
  });

  it('matches a host:port entry on that port only, IPv6 in brackets', () => {
    const sandbox = compileHostRules(['127.0.0.1:3010', '[::1]:3010', 'edge:3010']);
    expect(sandbox(new URL('http://127.0.0.1:3010/media/1'))).toBe(true);
    expect(sandbox(new URL('http://[::1]:3010/media/1'))).toBe(true);
    expect(sandbox(new URL('http://edge:3010/x'))).toBe(true);
    expect(sandbox(new URL('http://127.0.0.1:5432/'))).toBe(false);
    expect(sandbox(new URL('http://127.0.0.1/'))).toBe(false);
    expect(sandbox(new URL('http://edge:8080/metrics'))).toBe(false);
    expect(sandbox(new URL('http://[::1]:6379/'))).toBe(false);
  });

  it('an entry without a port means the scheme default port', () => {
    const rule = compileHostRules(['cdn.example']);
    expect(rule(new URL('https://cdn.example/x'))).toBe(true);
    expect(rule(new URL('https://cdn.example:443/x'))).toBe(true);
    expect(rule(new URL('http://cdn.example:80/x'))).toBe(true);
    expect(rule(new URL('http://cdn.example:8080/x'))).toBe(false);
  });

  it('an empty list matches nothing', () => {
    expect(compileHostRules([])(new URL('https://api.twilio.com/'))).toBe(false);
  });

  it('parses entries and names a bad one', () => {
    expect(parseHostRule('*.TwilioCDN.com')).toEqual({ host: 'twiliocdn.com', wildcard: true, port: null });
    expect(parseHostRule('[::1]:3010')).toEqual({ host: '::1', wildcard: false, port: 3010 });
    expect(parseHostRule('::1')).toEqual({ host: '::1', wildcard: false, port: null });
    for (const bad of ['http://x/', 'a b', '*.1.2.3.4', 'host:0', 'host:99999', 'host:x', '*', '']) {
      expect(() => parseHostRule(bad)).toThrow(/host entry/);
    }
    expect(parseHostList(' api.twilio.com , ,*.twiliocdn.com')).toEqual([
      'api.twilio.com',
      '*.twiliocdn.com',
    ]);
    expect(parseHostList(undefined)).toEqual([]);
    expect(() => parseHostList('127.0.0.1', { requirePort: true })).toThrow(/must be host:port/);
    expect(() => parseHostList('*.example.com:80', { requirePort: true })).toThrow(/must be host:port/);
    expect(parseHostList('127.0.0.1:3010', { requirePort: true })).toEqual(['127.0.0.1:3010']);
  });

  it('writes a URL as host:port', () => {
    expect(hostPortOf('http://127.0.0.1:3010')).toBe('127.0.0.1:3010');
    expect(hostPortOf('https://api.twilio.com/x')).toBe('api.twilio.com:443');
    expect(hostPortOf('http://[::1]:3010/')).toBe('[::1]:3010');
  });
});

describe('safeFetch with allowedHosts and privateEndpoints', () => {
  const hits: string[] = [];
  const servers: http.Server[] = [];
  let sandbox: string;
  let other: string;

  const start = async (handler: http.RequestListener): Promise<string> => {
    const server = http.createServer(handler);
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    servers.push(server);
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  };

  beforeAll(async () => {
    other = await start((req, res) => {
      hits.push(`other ${req.url}`);
      res.writeHead(200, { 'content-type': 'image/jpeg' }).end('x');
    });
    sandbox = await start((req, res) => {
      hits.push(`sandbox ${req.url}`);
      const to = new URL(req.url ?? '/', 'http://x').searchParams.get('to');
      if (to) res.writeHead(302, { location: to }).end();
      else res.writeHead(200, { 'content-type': 'image/jpeg' }).end('x');
    });
  });

  afterAll(() => {
    for (const s of servers) s.close();
  });

  beforeEach(() => {
    hits.length = 0;
  });

  const opts = (): SafeFetchOptions => ({
    maxBytes: 1024,
    timeoutMs: 5_000,
    maxRedirects: 3,
    allowedHosts: [...TWILIO, new URL(sandbox).host],
    privateEndpoints: [new URL(sandbox).host],
  });

  it('fetches the sandbox endpoint on loopback by its host:port', async () => {
    const response = await safeFetch(`${sandbox}/media/1`, opts());
    expect(response.status).toBe(200);
    expect(hits).toEqual(['sandbox /media/1']);
  });

  it('refuses another port of the same loopback address, before connecting', async () => {
    await expect(safeFetch(`${other}/x`, opts())).rejects.toBeInstanceOf(HostNotAllowedError);
    expect(hits).toEqual([]);
  });

  it('refuses a redirect from the sandbox to another loopback port', async () => {
    const toOther = await safeFetch(`${sandbox}/r?to=${encodeURIComponent(`${other}/x`)}`, opts()).catch(
      (e: unknown) => e,
    );
    expect(toOther).toBeInstanceOf(HostNotAllowedError);
    expect(hits).toEqual([`sandbox /r?to=${encodeURIComponent(`${other}/x`)}`]);
  });

  // Probes of metadata and private networks run in image-processor's network-namespace test.

  it('a private endpoint opens that host:port only, not the address', async () => {
    const { host } = new URL(sandbox);
    // Allowed as a host but not as a private endpoint: the loopback address is still refused.
    const error = await safeFetch(`${other}/x`, {
      ...opts(),
      allowedHosts: [host, new URL(other).host],
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BlockedAddressError);
    expect(hits).toEqual([]);
  });
});
