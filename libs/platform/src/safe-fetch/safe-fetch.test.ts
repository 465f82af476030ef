import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  BlockedAddressError,
  ContentTypeNotAllowedError,
  DnsResolutionError,
  FetchAbortedError,
  FetchTimeoutError,
  HttpStatusError,
  InvalidUrlError,
  ProtocolNotAllowedError,
  ResponseTooLargeError,
  SafeFetchError,
  TooManyRedirectsError,
} from './errors';
import { safeFetch, type SafeFetchOptions } from './safe-fetch';

const JPEG = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46]);

interface Seen {
  path: string;
  host: string | undefined;
  authorization: string | undefined;
}

describe('safeFetch', () => {
  let server: http.Server;
  let port: number;
  let base: string;
  const seen: Seen[] = [];
  const streamed = { written: 0, finished: false };

  beforeAll(async () => {
    server = http.createServer((req, res) => {
      const url = new URL(req.url ?? '/', 'http://x');
      seen.push({ path: url.pathname, host: req.headers.host, authorization: req.headers.authorization });
      switch (url.pathname) {
        case '/image.jpg':
          res.writeHead(200, { 'content-type': 'image/jpeg', 'content-length': JPEG.length });
          res.end(JPEG);
          return;
        case '/png-with-params':
          res.writeHead(200, { 'content-type': 'Image/PNG; charset=binary' });
          res.end(JPEG);
          return;
        case '/page.html':
          res.writeHead(200, { 'content-type': 'text/html' });
          res.end('<html></html>');
          return;
        case '/declared-huge':
          res.writeHead(200, { 'content-type': 'image/jpeg', 'content-length': 50_000_000 });
          res.write(JPEG);
          return;
        case '/endless': {
          // Chunked with no length: only the streaming counter can stop it.
          res.writeHead(200, { 'content-type': 'image/jpeg' });
          const chunk = Buffer.alloc(16 * 1024, 1);
          const pump = (): void => {
            if (res.destroyed || streamed.written >= 20 * 1024 * 1024) {
              streamed.finished = !res.destroyed;
              res.end();
              return;
            }
            streamed.written += chunk.length;
            if (res.write(chunk)) setImmediate(pump);
            else res.once('drain', pump);
          };
          pump();
          return;
        }
        case '/hang':
          res.writeHead(200, { 'content-type': 'image/jpeg' });
          res.write(JPEG);
          return;
        case '/missing':
          res.writeHead(404, { 'content-type': 'text/plain' });
          res.end('not here');
          return;
        case '/redirect':
          res.writeHead(302, { location: url.searchParams.get('to') ?? '/image.jpg' });
          res.end();
          return;
        case '/loop':
          res.writeHead(307, { location: '/loop' });
          res.end();
          return;
        case '/whoami':
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end(
            JSON.stringify({ host: req.headers.host, authorization: req.headers.authorization ?? null }),
          );
          return;
        default:
          res.writeHead(404);
          res.end();
      }
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    port = (server.address() as AddressInfo).port;
    base = `http://127.0.0.1:${port}`;
  });

  afterAll(async () => {
    server.closeAllConnections();
    server.close();
    await once(server, 'close');
  });

  beforeEach(() => {
    seen.length = 0;
  });

  const loopbackOnly: Pick<SafeFetchOptions, 'allowPrivateHosts'> = { allowPrivateHosts: ['127.0.0.1'] };
  const opts = (extra: Partial<SafeFetchOptions> = {}): SafeFetchOptions => ({
    maxBytes: 1024 * 1024,
    timeoutMs: 5_000,
    maxRedirects: 3,
    ...extra,
  });
  /** A resolver that knows a few test names and nothing else: proves the system resolver was not used. */
  const fakeDns =
    (table: Record<string, string[]>, calls: string[] = []) =>
    async (hostname: string): Promise<string[]> => {
      calls.push(hostname);
      const answer = table[hostname];
      if (!answer) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
      return answer;
    };

  describe('refuses addresses outside the public internet', () => {
    it.each([
      ['loopback', (p: number) => `http://127.0.0.1:${p}/image.jpg`],
      ['loopback, decimal form', (p: number) => `http://2130706433:${p}/image.jpg`],
      ['loopback, hex form', (p: number) => `http://0x7f000001:${p}/image.jpg`],
      ['loopback, dotted hex form', (p: number) => `http://0x7f.0.0.1:${p}/image.jpg`],
      ['loopback, octal form', (p: number) => `http://0177.0.0.1:${p}/image.jpg`],
      ['loopback, short form', (p: number) => `http://127.1:${p}/image.jpg`],
      ['IPv6 loopback', (p: number) => `http://[::1]:${p}/image.jpg`],
      ['IPv4-mapped IPv6 loopback', (p: number) => `http://[::ffff:127.0.0.1]:${p}/image.jpg`],
    ])('%s', async (_label, makeUrl) => {
      const error = await safeFetch(makeUrl(port), opts()).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(BlockedAddressError);
      expect(seen).toHaveLength(0);
    });

    it.each([
      'http://169.254.169.254/latest/meta-data/',
      'http://[fd00:ec2::254]/latest/meta-data/',
      'http://[::ffff:a9fe:a9fe]/',
      'http://10.0.0.8/',
      'http://172.20.1.1/',
      'http://192.168.0.1/',
      'http://100.64.12.1/',
      'http://0.0.0.0/',
      'http://224.0.0.1/',
      'http://[fd12:3456::1]/',
      'http://[fe80::1]/',
      'http://[ff02::1]/',
      'https://[::]/',
    ])('%s', async (url) => {
      await expect(safeFetch(url, opts())).rejects.toBeInstanceOf(BlockedAddressError);
    });

    it('refuses a name that resolves to a private address, and one with any private answer', async () => {
      const resolve = fakeDns({
        'intranet.example': ['10.1.1.1'],
        'mixed.example': ['93.184.216.34', '192.168.1.10'],
      });
      const intranet = await safeFetch('http://intranet.example/a.jpg', opts({ resolve })).catch(
        (e: unknown) => e,
      );
      expect(intranet).toBeInstanceOf(BlockedAddressError);
      expect((intranet as BlockedAddressError).address).toBe('10.1.1.1');
      await expect(safeFetch('http://mixed.example/a.jpg', opts({ resolve }))).rejects.toBeInstanceOf(
        BlockedAddressError,
      );
    });

    it('refuses localhost through the system resolver', async () => {
      await expect(safeFetch(`http://localhost:${port}/image.jpg`, opts())).rejects.toBeInstanceOf(
        BlockedAddressError,
      );
      expect(seen).toHaveLength(0);
    });
  });

  describe('redirects', () => {
    it.each([
      'http://169.254.169.254/latest/meta-data/iam/',
      'http://10.0.0.1/',
      'http://[::1]/',
      'http://[fd00::1]/',
      'http://0xa9fea9fe/',
    ])('re-validates the target and refuses %s', async (target) => {
      const error = await safeFetch(
        `${base}/redirect?to=${encodeURIComponent(target)}`,
        opts(loopbackOnly),
      ).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(BlockedAddressError);
      expect(seen.map((s) => s.path)).toEqual(['/redirect']);
    });

    it('resolves every hop again and refuses a redirect to a name pointing inside', async () => {
      const calls: string[] = [];
      const resolve = fakeDns(
        { 'cdn.sprout.test': ['127.0.0.1'], 'metadata.sprout.test': ['169.254.169.254'] },
        calls,
      );
      const target = encodeURIComponent('http://metadata.sprout.test/latest/');
      await expect(
        safeFetch(`http://cdn.sprout.test:${port}/redirect?to=${target}`, opts({ ...loopbackOnly, resolve })),
      ).rejects.toBeInstanceOf(BlockedAddressError);
      expect(calls).toEqual(['cdn.sprout.test', 'metadata.sprout.test']);
    });

    it('refuses a redirect to another protocol', async () => {
      const target = encodeURIComponent('file:///etc/passwd');
      await expect(safeFetch(`${base}/redirect?to=${target}`, opts(loopbackOnly))).rejects.toBeInstanceOf(
        ProtocolNotAllowedError,
      );
    });

    it('follows allowed redirects and reports the final URL', async () => {
      const response = await safeFetch(`${base}/redirect?to=%2Fimage.jpg`, opts(loopbackOnly));
      expect(response.url).toBe(`${base}/image.jpg`);
      expect(response.redirects).toBe(1);
      expect(response.body.equals(JPEG)).toBe(true);
    });

    it('stops after maxRedirects', async () => {
      const error = await safeFetch(`${base}/loop`, opts({ ...loopbackOnly, maxRedirects: 2 })).catch(
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(TooManyRedirectsError);
      expect(seen).toHaveLength(3);
      await expect(
        safeFetch(`${base}/redirect`, opts({ ...loopbackOnly, maxRedirects: 0 })),
      ).rejects.toBeInstanceOf(TooManyRedirectsError);
    });

    it('keeps credentials on the same origin and drops them when the redirect leaves it', async () => {
      const resolve = fakeDns({ 'media.sprout.test': ['127.0.0.1'] });
      const headers = { Authorization: 'Basic c2lkOnRva2Vu' };
      const same = await safeFetch(
        `${base}/redirect?to=%2Fwhoami`,
        opts({ ...loopbackOnly, resolve, headers }),
      );
      expect(JSON.parse(same.body.toString())).toEqual({
        host: `127.0.0.1:${port}`,
        authorization: headers.Authorization,
      });
      const away = encodeURIComponent(`http://media.sprout.test:${port}/whoami`);
      const other = await safeFetch(
        `${base}/redirect?to=${away}`,
        opts({ ...loopbackOnly, resolve, headers }),
      );
      expect(JSON.parse(other.body.toString())).toEqual({
        host: `media.sprout.test:${port}`,
        authorization: null,
      });
    });
  });

  it('connects to the address it validated (pinned), keeping the Host name', async () => {
    const resolve = fakeDns({ 'images.sprout.test': ['127.0.0.1'] });
    const response = await safeFetch(
      `http://images.sprout.test:${port}/whoami`,
      opts({ ...loopbackOnly, resolve }),
    );
    expect(response.address).toBe('127.0.0.1');
    expect(JSON.parse(response.body.toString())).toMatchObject({ host: `images.sprout.test:${port}` });
  });

  it('fetches an allowed image with its media type', async () => {
    const response = await safeFetch(
      `${base}/image.jpg`,
      opts({ allowPrivateHosts: true, allowedContentTypes: ['image/*'] }),
    );
    expect(response.status).toBe(200);
    expect(response.contentType).toBe('image/jpeg');
    expect(response.body.equals(JPEG)).toBe(true);
    const png = await safeFetch(
      `${base}/png-with-params`,
      opts({ allowPrivateHosts: true, allowedContentTypes: ['image/png'] }),
    );
    expect(png.contentType).toBe('image/png');
  });

  describe('size cap', () => {
    it('refuses a declared length over the cap before reading', async () => {
      const error = await safeFetch(`${base}/declared-huge`, opts({ ...loopbackOnly, maxBytes: 1000 })).catch(
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(ResponseTooLargeError);
      expect((error as ResponseTooLargeError).maxBytes).toBe(1000);
    });

    it('aborts a stream without a length once it passes the cap', async () => {
      streamed.written = 0;
      streamed.finished = false;
      await expect(
        safeFetch(`${base}/endless`, opts({ ...loopbackOnly, maxBytes: 64 * 1024 })),
      ).rejects.toBeInstanceOf(ResponseTooLargeError);
      expect(streamed.finished).toBe(false);
      expect(streamed.written).toBeLessThan(20 * 1024 * 1024);
    });
  });

  it('times out a response that never completes', async () => {
    const error = await safeFetch(`${base}/hang`, opts({ ...loopbackOnly, timeoutMs: 300 })).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(FetchTimeoutError);
    expect((error as SafeFetchError).code).toBe('TIMEOUT');
  });

  it('times out a resolver that never answers', async () => {
    const resolve = (): Promise<string[]> => new Promise<string[]>(() => undefined);
    await expect(
      safeFetch('http://slow-dns.sprout.test/', opts({ resolve, timeoutMs: 200 })),
    ).rejects.toBeInstanceOf(FetchTimeoutError);
  });

  it('can be aborted', async () => {
    const controller = new AbortController();
    const pending = safeFetch(`${base}/hang`, opts({ ...loopbackOnly, signal: controller.signal }));
    setTimeout(() => controller.abort(), 50);
    await expect(pending).rejects.toBeInstanceOf(FetchAbortedError);
  });

  it('refuses a content type outside the allow-list, and a missing one', async () => {
    const error = await safeFetch(
      `${base}/page.html`,
      opts({ ...loopbackOnly, allowedContentTypes: ['image/jpeg', 'image/png'] }),
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ContentTypeNotAllowedError);
    expect((error as ContentTypeNotAllowedError).contentType).toBe('text/html');
    await expect(
      safeFetch(`${base}/missing`, opts({ ...loopbackOnly, allowedContentTypes: ['image/*'] })),
    ).rejects.toBeInstanceOf(HttpStatusError);
  });

  it('reports HTTP errors with their status', async () => {
    const error = await safeFetch(`${base}/missing`, opts(loopbackOnly)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HttpStatusError);
    expect((error as HttpStatusError).status).toBe(404);
  });

  it.each([
    'ftp://example.com/a.jpg',
    'file:///etc/passwd',
    'gopher://example.com/',
    'data:image/png;base64,AAAA',
  ])('refuses the protocol of %s', async (url) => {
    await expect(safeFetch(url, opts())).rejects.toBeInstanceOf(ProtocolNotAllowedError);
  });

  it('refuses malformed URLs and URLs carrying credentials', async () => {
    await expect(safeFetch('not a url', opts())).rejects.toBeInstanceOf(InvalidUrlError);
    await expect(safeFetch('http://user:pass@example.com/', opts())).rejects.toBeInstanceOf(InvalidUrlError);
  });

  it('reports names that do not resolve', async () => {
    const error = await safeFetch('http://nowhere.sprout.test/', opts({ resolve: fakeDns({}) })).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(DnsResolutionError);
    expect((error as DnsResolutionError).hostname).toBe('nowhere.sprout.test');
  });

  it('validates its options', async () => {
    await expect(safeFetch(`${base}/image.jpg`, opts({ maxBytes: 0 }))).rejects.toThrow('maxBytes');
    await expect(safeFetch(`${base}/image.jpg`, opts({ maxRedirects: -1 }))).rejects.toThrow('maxRedirects');
  });
});
