import { execFileSync, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync, readlinkSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { SafeFetchError, loadConfig, safeFetch } from '@sprout/platform';
import { imageProcessorConfig } from '../src/config';
import { ImageSource } from '../src/image-analysis/image-source';

// The SSRF probes aim at cloud metadata and private networks. They run only inside a network
// namespace of their own with no route out (created and deleted here), never on the host: should
// a probe get through the policy, it still reaches nothing.
const INNER = process.env.SPROUT_SSRF_NETNS;

const JPEG = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01]);

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
    const servers: http.Server[] = [];
    let internalPort: number;
    let internalV6Port: number | null = null;
    let sandbox: string;

    const start = async (host: string, handler: http.RequestListener): Promise<number> => {
      const server = http.createServer(handler);
      server.listen(0, host);
      await once(server, 'listening');
      servers.push(server);
      return (server.address() as AddressInfo).port;
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
      const sandboxPort = await start('127.0.0.1', (req, res) => {
        const to = new URL(req.url ?? '/', 'http://x').searchParams.get('to');
        if (to) res.writeHead(302, { location: to }).end();
        else res.writeHead(200, { 'content-type': 'image/jpeg' }).end(JPEG);
      });
      sandbox = `http://127.0.0.1:${sandboxPort}`;
    });

    afterAll(() => {
      for (const s of servers) s.close();
    });

    // Every configuration the project ships: production defaults, docker-compose.yml, the k8s dev
    // overlay and `npm start` (each sets TWILIO_API_BASE_URL to its sandbox and nothing else).
    const shipped = (): Array<[string, Record<string, string>]> => [
      ['production defaults', {}],
      ['docker compose', { TWILIO_API_BASE_URL: 'http://edge:3010', IMAGE_FETCH_SANDBOX_MEDIA_HOSTS: '' }],
      ['k8s dev overlay', { TWILIO_API_BASE_URL: 'http://fake-twilio:3010' }],
      ['npm start', { TWILIO_API_BASE_URL: sandbox }],
    ];

    const probes = (): string[] => {
      const p = internalPort;
      const list = [
        'http://169.254.169.254/latest/meta-data/iam/security-credentials/',
        'http://[fd00:ec2::254]/latest/meta-data/',
        'http://metadata.google.internal/computeMetadata/v1/',
        'http://10.0.0.1/plant.jpg',
        'http://172.17.0.1/plant.jpg',
        'http://192.168.1.1/plant.jpg',
        'http://100.64.0.1/plant.jpg',
        `http://127.0.0.1:${p}/metrics`,
        `http://localhost:${p}/`,
        `http://2130706433:${p}/`,
        `http://0x7f.1:${p}/`,
        `http://[::ffff:127.0.0.1]:${p}/`,
        `http://0.0.0.0:${p}/`,
        'http://127.0.0.1:5432/',
        'http://127.0.0.1:6379/',
        'http://127.0.0.1:8080/metrics',
        'https://api.twilio.com.evil.example/plant.jpg',
        'https://api.twilio.com:6379/',
        // Through the sandbox endpoint: a redirect inside must be refused like a direct URL.
        `${sandbox}/r?to=${encodeURIComponent(`http://127.0.0.1:${p}/metrics`)}`,
        `${sandbox}/r?to=${encodeURIComponent('http://169.254.169.254/latest/meta-data/')}`,
        `${sandbox}/r?to=${encodeURIComponent('http://10.0.0.1/')}`,
      ];
      if (internalV6Port !== null) list.push(`http://[::1]:${internalV6Port}/`);
      return list;
    };

    it('refuses every probe in every shipped configuration, and nothing internal is reached', async () => {
      for (const [name, env] of shipped()) {
        const source = new ImageSource(loadConfig(imageProcessorConfig, env));
        for (const url of probes()) {
          const sandboxUrl = url.startsWith(sandbox);
          // Outside `npm start` the sandbox endpoint is not allowed either.
          const error = await source.fetch(url).then(
            () => null,
            (e: unknown) => e,
          );
          expect({ name, url, error: error instanceof SafeFetchError ? error.code : String(error) }).toEqual({
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
    });

    it('fetches the sandbox endpoint only in the configuration that names it', async () => {
      const npmStart = new ImageSource(loadConfig(imageProcessorConfig, { TWILIO_API_BASE_URL: sandbox }));
      const image = await npmStart.fetch(`${sandbox}/media/1.jpg`);
      expect(image.contentType).toBe('image/jpeg');
      const production = new ImageSource(loadConfig(imageProcessorConfig, {}));
      await expect(production.fetch(`${sandbox}/media/1.jpg`)).rejects.toMatchObject({
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
