import { execFileSync, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync, readlinkSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import {
  IMAGE_SAMPLES_DIR,
  SafeFetchError,
  adminUrlPolicy,
  fetchImage,
  loadConfig,
  safeFetch,
} from '@sprout/platform';
import { imageProcessorConfig } from '../src/config';
import { ImageSource } from '../src/image-analysis/image-source';

// The SSRF probes aim at cloud metadata and private networks. They run only inside a network
// namespace of their own with no route out (created and deleted here), never on the host: should
// a probe get through the policy, it still reaches nothing.
const INNER = process.env.SPROUT_SSRF_NETNS;

const JPEG = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01]);
/**
 * Stands for a public host (an admin URL may name any): the namespace gives this address to its
 * own loopback device, so a fetch of it reaches this test's server and never the internet.
 */
const PUBLIC_ADDRESS = '93.184.216.34';

if (INNER === undefined) {
  describe('SSRF probes of the image fetch', () => {
    if (process.getuid?.() !== 0) {
      it.skip('SKIPPED: creating a network namespace with no route out (ip netns add) needs root', () => {});
      return;
    }

    it('run inside a fresh network namespace with no route out, and every probe is refused', () => {
      const ns = `sprout-ssrf-${process.pid}`;
      execFileSync('ip', ['netns', 'add', ns]);
      try {
        execFileSync('ip', ['netns', 'exec', ns, 'ip', 'link', 'set', 'lo', 'up']);
        execFileSync('ip', ['netns', 'exec', ns, 'ip', 'addr', 'add', `${PUBLIC_ADDRESS}/32`, 'dev', 'lo']);
        const run = spawnSync(
          'ip',
          [
            'netns',
            'exec',
            ns,
            process.execPath,
            require.resolve('jest/bin/jest'),
            '-c',
            path.join(__dirname, '..', 'jest.config.cjs'),
            '--runTestsByPath',
            __filename,
            '--ci',
            '--colors=false',
          ],
          {
            env: {
              ...process.env,
              SPROUT_SSRF_NETNS: ns,
              SPROUT_HOST_NETNS: readlinkSync('/proc/self/ns/net'),
            },
            encoding: 'utf8',
            timeout: 150_000,
          },
        );
        const output = `${run.stdout}${run.stderr}`;
        if (run.status !== 0) throw new Error(`the probes inside ${ns} failed:\n${output}`);
        expect(output).toMatch(/Tests:\s+\d+ passed, \d+ total/);
        expect(output).not.toMatch(/skipped|failed/);
      } finally {
        execFileSync('ip', ['netns', 'delete', ns]);
      }
    }, 180_000);
  });
} else {
  describe(`SSRF probes inside network namespace ${INNER}`, () => {
    const internalHits: string[] = [];
    const publicHits: string[] = [];
    const servers: http.Server[] = [];
    let internalPort: number;
    let internalV6Port: number | null = null;
    let sandbox: string;
    let publicHost: string;
    const leaf = readFileSync(path.join(IMAGE_SAMPLES_DIR, 'leaf.jpg'));

    const start = async (host: string, handler: http.RequestListener, port = 0): Promise<number> => {
      const server = http.createServer(handler);
      server.listen(port, host);
      await once(server, 'listening');
      servers.push(server);
      return (server.address() as AddressInfo).port;
    };

    /** Serves a picture, or redirects wherever asked (?to=); notes the Host and path asked for. */
    const imageHost =
      (hits: string[], body: Buffer): http.RequestListener =>
      (req, res) => {
        hits.push(`${req.headers.host} ${req.url}`);
        const to = new URL(req.url ?? '/', 'http://x').searchParams.get('to');
        if (to) res.writeHead(302, { location: to }).end();
        else res.writeHead(200, { 'content-type': 'image/jpeg' }).end(body);
      };

    beforeAll(async () => {
      // Refuse to run anywhere but a namespace of our own with no route out.
      const own = readlinkSync('/proc/self/ns/net');
      if (!process.env.SPROUT_HOST_NETNS || own === process.env.SPROUT_HOST_NETNS) {
        throw new Error('not inside a network namespace: the probes never run on the host');
      }
      const routes = readFileSync('/proc/net/route', 'utf8').trim().split('\n').slice(1);
      if (routes.length > 0) throw new Error(`the namespace has IPv4 routes: ${routes.join('; ')}`);

      // What an attacker wants: Postgres, Redis, the edge, /metrics on loopback.
      const internal: http.RequestListener = (req, res) => {
        internalHits.push(`${req.headers.host} ${req.url}`);
        res.writeHead(200, { 'content-type': 'image/jpeg' }).end(JPEG);
      };
      internalPort = await start('127.0.0.1', internal);
      internalV6Port = await start('::1', internal).catch(() => null);
      // The sandbox's own media endpoint: serves a picture, or redirects wherever asked.
      const sandboxPort = await start('127.0.0.1', imageHost([], JPEG));
      sandbox = `http://127.0.0.1:${sandboxPort}`;
      // A public host, and on the same port of loopback a server a rebound name would reach.
      const publicPort = await start(PUBLIC_ADDRESS, imageHost(publicHits, leaf));
      publicHost = `${PUBLIC_ADDRESS}:${publicPort}`;
      await start('127.0.0.1', internal, publicPort);
    });

    afterAll(() => {
      for (const s of servers) s.close();
    });

    beforeEach(() => {
      publicHits.length = 0;
    });

    // Every configuration the project ships: production defaults, docker-compose.yml, the k8s dev
    // overlay and `npm start` (each sets TWILIO_API_BASE_URL to its sandbox and nothing else).
    const shipped = (): Array<[string, Record<string, string>]> => [
      ['production defaults', {}],
      ['docker compose', { TWILIO_API_BASE_URL: 'http://edge:3010', IMAGE_FETCH_SANDBOX_MEDIA_HOSTS: '' }],
      ['k8s dev overlay', { TWILIO_API_BASE_URL: 'http://fake-twilio:3010' }],
      ['npm start', { TWILIO_API_BASE_URL: sandbox }],
    ];

    /** Internal targets; `named` ones are names the namespace cannot resolve. */
    const targets = (): Array<{ url: string; named?: boolean }> => {
      const p = internalPort;
      const list: Array<{ url: string; named?: boolean }> = [
        { url: 'http://169.254.169.254/latest/meta-data/iam/security-credentials/' },
        { url: 'http://[fd00:ec2::254]/latest/meta-data/' },
        { url: 'http://metadata.google.internal/computeMetadata/v1/', named: true },
        { url: 'http://10.0.0.1/plant.jpg' },
        { url: 'http://172.17.0.1/plant.jpg' },
        { url: 'http://192.168.1.1/plant.jpg' },
        { url: 'http://100.64.0.1/plant.jpg' },
        { url: `http://127.0.0.1:${p}/metrics` },
        { url: `http://localhost:${p}/` },
        { url: `http://2130706433:${p}/` },
        { url: `http://0x7f.1:${p}/` },
        { url: `http://[::ffff:127.0.0.1]:${p}/` },
        { url: `http://[::ffff:10.0.0.1]/` },
        { url: `http://0.0.0.0:${p}/` },
        { url: `http://[::]:${p}/` },
        { url: 'http://224.0.0.1/' },
        { url: 'http://[fe80::1]/' },
        { url: 'http://127.0.0.1:5432/' },
        { url: 'http://127.0.0.1:6379/' },
        { url: 'http://127.0.0.1:8080/metrics' },
        // The stack's own port on loopback, off the samples' path.
        { url: 'http://localhost:8080/metrics' },
        { url: 'https://api.twilio.com.evil.example/plant.jpg', named: true },
        { url: 'https://api.twilio.com:6379/', named: true },
      ];
      if (internalV6Port !== null) list.push({ url: `http://[::1]:${internalV6Port}/` });
      return list;
    };

    const codeOf = async (fetching: Promise<unknown>): Promise<string> =>
      fetching.then(
        () => 'fetched',
        (e: unknown) => (e instanceof SafeFetchError ? e.code : String(e)),
      );

    it('MMS media: refuses every probe in every shipped configuration, and nothing internal is reached', async () => {
      const probes = [
        ...targets().map((t) => t.url),
        // Through the sandbox endpoint: a redirect inside must be refused like a direct URL.
        `${sandbox}/r?to=${encodeURIComponent(`http://127.0.0.1:${internalPort}/metrics`)}`,
        `${sandbox}/r?to=${encodeURIComponent('http://169.254.169.254/latest/meta-data/')}`,
        `${sandbox}/r?to=${encodeURIComponent('http://10.0.0.1/')}`,
        // Any public host but Twilio's is refused for an MMS.
        `http://${publicHost}/plant.jpg`,
      ];
      for (const [name, env] of shipped()) {
        const source = new ImageSource(loadConfig(imageProcessorConfig, env));
        for (const url of probes) {
          const sandboxUrl = url.startsWith(sandbox);
          // Outside `npm start` the sandbox endpoint is not allowed either.
          const error = await codeOf(source.fetch({ url }));
          expect({ name, url, error }).toEqual({
            name,
            url,
            error:
              sandboxUrl && name === 'npm start'
                ? 'HOST_NOT_ALLOWED'
                : expect.stringMatching(/^(HOST_NOT_ALLOWED|BLOCKED_ADDRESS)$/),
          });
        }
      }
      expect(internalHits).toEqual([]);
      expect(publicHits).toEqual([]);
    });

    it('admin URLs: refuses every probe, directly and by a public host redirect, in every shipped configuration', async () => {
      for (const [name, env] of shipped()) {
        const source = new ImageSource(loadConfig(imageProcessorConfig, env));
        for (const target of targets()) {
          // A name the namespace cannot resolve fails in DNS; every address is refused as such.
          const expected = target.named ? 'DNS_FAILURE' : 'BLOCKED_ADDRESS';
          const redirect = `http://${publicHost}/r?to=${encodeURIComponent(target.url)}`;
          for (const url of [target.url, redirect]) {
            const error = await codeOf(source.fetch({ url, source: 'admin' }));
            expect({ name, url, error }).toEqual({ name, url, error: expected });
          }
        }
        // The sandbox endpoint is an MMS thing: for an admin URL it is loopback like any other.
        const viaSandbox = await codeOf(source.fetch({ url: `${sandbox}/media/1.jpg`, source: 'admin' }));
        expect({ name, viaSandbox }).toEqual({ name, viaSandbox: 'BLOCKED_ADDRESS' });
      }
      expect(internalHits).toEqual([]);
    });

    it('admin URLs: a public host is fetched in every shipped configuration, without Twilio credentials', async () => {
      for (const [name, env] of shipped()) {
        const source = new ImageSource(loadConfig(imageProcessorConfig, env));
        const image = await source.fetch({ url: `http://${publicHost}/leaf.jpg`, source: 'admin' });
        expect({ name, type: image.contentType, same: image.body.equals(leaf) }).toEqual({
          name,
          type: 'image/jpeg',
          same: true,
        });
      }
      expect(publicHits).toEqual(shipped().map(() => `${publicHost} /leaf.jpg`));
      // The stack's own samples are read in place: loopback is never fetched for them.
      const npmStart = new ImageSource(loadConfig(imageProcessorConfig, { TWILIO_API_BASE_URL: sandbox }));
      const sample = await npmStart.fetch({
        url: 'http://localhost:8080/api/image-samples/leaf.jpg',
        source: 'admin',
      });
      expect(sample.body.equals(leaf)).toBe(true);
      expect(internalHits).toEqual([]);
    });

    describe('the admin URL policy with names (a resolver stub)', () => {
      const answers: Record<string, string[]> = {
        'metadata.sprout.test': ['169.254.169.254'],
        'mapped.sprout.test': ['::ffff:10.0.0.1'],
        'ula.sprout.test': ['fd00::1'],
        'aws-v6-metadata.sprout.test': ['fd00:ec2::254'],
        'cgnat.sprout.test': ['100.64.0.1'],
        'zero.sprout.test': ['0.0.0.0'],
        'unspecified.sprout.test': ['::'],
        'loopback.sprout.test': ['127.0.0.1'],
        'private.sprout.test': ['10.0.0.1'],
        'multicast.sprout.test': ['224.0.0.1'],
        'link-local.sprout.test': ['fe80::1'],
        // One private answer among public ones is enough to refuse the name.
        'mixed.sprout.test': [PUBLIC_ADDRESS, '10.0.0.1'],
      };
      const resolve = async (hostname: string): Promise<string[]> => {
        const answer = answers[hostname];
        if (answer === undefined) throw new Error(`ENOTFOUND ${hostname}`);
        return answer;
      };
      const admin = {
        ...adminUrlPolicy({ publicBaseUrl: 'http://localhost:8080' }),
        timeoutMs: 2_000,
        resolve,
      };

      it.each(Object.keys(answers))('refuses %s, directly and as a redirect target', async (host) => {
        const direct = `http://${host}:${internalPort}/`;
        const redirect = `http://${publicHost}/r?to=${encodeURIComponent(direct)}`;
        for (const url of [direct, redirect]) {
          const error = await fetchImage(url, admin).catch((e: unknown) => e);
          expect(error).toMatchObject({ code: 'BLOCKED_ADDRESS', hostname: host });
          expect(answers[host]).toContain((error as { address: string }).address);
        }
        expect(internalHits).toEqual([]);
      });

      it('refuses the redirect of the stack own sample to the metadata address', async () => {
        const error = await fetchImage(
          'http://localhost:8080/api/image-samples/redirect-to-private.jpg',
          admin,
        ).catch((e: unknown) => e);
        expect(error).toMatchObject({ code: 'BLOCKED_ADDRESS', address: '169.254.169.254' });
      });

      it('connects to the address it checked: a name that rebinds to loopback still reaches the public host', async () => {
        const calls: string[] = [];
        // Public on the first answer, loopback (where a server waits on the same port) after it.
        const rebinding = async (hostname: string): Promise<string[]> => {
          calls.push(hostname);
          return calls.length === 1 ? [PUBLIC_ADDRESS] : ['127.0.0.1'];
        };
        const port = publicHost.split(':')[1];
        const response = await safeFetch(`http://rebind.sprout.test:${port}/leaf.jpg`, {
          ...admin,
          resolve: rebinding,
          maxBytes: 1024 * 1024,
          maxRedirects: 0,
        });
        expect(response.address).toBe(PUBLIC_ADDRESS);
        expect(calls).toEqual(['rebind.sprout.test']);
        expect(publicHits).toEqual([`rebind.sprout.test:${port} /leaf.jpg`]);
        expect(internalHits).toEqual([]);
      });
    });

    it('fetches the sandbox endpoint only in the configuration that names it', async () => {
      const npmStart = new ImageSource(loadConfig(imageProcessorConfig, { TWILIO_API_BASE_URL: sandbox }));
      const image = await npmStart.fetch({ url: `${sandbox}/media/1.jpg` });
      expect(image.contentType).toBe('image/jpeg');
      const production = new ImageSource(loadConfig(imageProcessorConfig, {}));
      await expect(production.fetch({ url: `${sandbox}/media/1.jpg` })).rejects.toMatchObject({
        code: 'HOST_NOT_ALLOWED',
      });
    });

    it('refuses a Twilio media host whose DNS answer is private', async () => {
      for (const address of ['169.254.169.254', '10.0.0.1', '127.0.0.1', 'fd00:ec2::254']) {
        const error = await safeFetch('https://media.twiliocdn.com/AC1/ME1', {
          maxBytes: 1024,
          timeoutMs: 2_000,
          maxRedirects: 0,
          allowedHosts: ['media.twiliocdn.com'],
          resolve: async () => [address],
        }).catch((e: unknown) => e);
        expect(error).toMatchObject({ code: 'BLOCKED_ADDRESS', address });
      }
    });
  });
}
