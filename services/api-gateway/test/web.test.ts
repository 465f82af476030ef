import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { webPages } from '@sprout/contracts';
import { startGateway, type TestGateway } from './support/gateway';

const PUBLIC_INDEX = '<!doctype html><html><body>public-app-index</body></html>';
const ADMIN_INDEX = '<!doctype html><html><body>admin-app-index</body></html>';

let dir: string;
let gw: TestGateway;
let app: NestFastifyApplication;

const write = (relative: string, content: string): void => {
  const file = path.join(dir, relative);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, content);
};

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sprout-web-'));
  write('public/index.html', PUBLIC_INDEX);
  write('public/assets/index-AbC123.js', 'console.log("public bundle")');
  write('public/favicon.svg', '<svg xmlns="http://www.w3.org/2000/svg"/>');
  write('admin/index.html', ADMIN_INDEX);
  write('admin/assets/index-XyZ789.js', 'console.log("admin bundle")');
  write('admin/favicon.svg', '<svg xmlns="http://www.w3.org/2000/svg"><title>admin</title></svg>');
  write('secret.txt', 'outside the dists');
  gw = await startGateway({
    webPublicDist: path.join(dir, 'public'),
    webAdminDist: path.join(dir, 'admin'),
  });
  app = gw.app;
});

afterAll(async () => {
  await gw?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const get = (url: string) => app.inject({ method: 'GET', url });

describe('page navigation', () => {
  it.each(['/', '/live', '/consent', '/location-test'])('%s answers the public app with 200', async (url) => {
    const res = await get(url);
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe(PUBLIC_INDEX);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.headers['cache-control']).toBe('no-cache');
  });

  it.each([
    '/admin',
    '/admin/',
    '/admin/login',
    '/admin/dashboard',
    '/admin/users/',
    '/admin/model-management',
    '/admin/surveys',
    '/admin/image-monitoring',
    '/admin/system-health',
    '/admin/fallback-monitoring',
    '/admin/proactive-monitoring',
    '/admin/monitoring',
    '/ai-conversation-simulator',
    '/mobile-conversation/0b7b1c5e-2f0a-4a51-9f61-4b1d3a2f9e10',
    '/users?search=%2B15035550101',
  ])('%s answers the admin app with 200', async (url) => {
    const res = await get(url);
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe(ADMIN_INDEX);
    expect(res.headers['cache-control']).toBe('no-cache');
  });

  it('answers every page of the shared list with 200 and its app', async () => {
    for (const app of ['public', 'admin'] as const) {
      for (const page of webPages[app]) {
        const res = await get(page.replace(/:[^/]+/g, 'some-id'));
        expect([page, res.statusCode, res.body]).toEqual([
          page,
          200,
          app === 'admin' ? ADMIN_INDEX : PUBLIC_INDEX,
        ]);
      }
    }
  });

  it.each(['/admin/nope', '/admin/users/42/details', '/admin/dashboard/extra', '/admin/assets'])(
    '%s answers the admin app with 404 (its 404 page)',
    async (url) => {
      const res = await get(url);
      expect(res.statusCode).toBe(404);
      expect(res.body).toBe(ADMIN_INDEX);
      expect(res.headers['content-type']).toMatch(/^text\/html/);
      expect(res.headers['cache-control']).toBe('no-cache');
    },
  );

  it.each([
    '/nope',
    '/live/extra',
    '/administrator',
    '/mobile-conversation',
    '/mobile-conversation/a/b',
    '/assets',
  ])('%s answers the public app with 404 (its 404 page)', async (url) => {
    const res = await get(url);
    expect(res.statusCode).toBe(404);
    expect(res.body).toBe(PUBLIC_INDEX);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
  });

  it('answers HEAD like GET, without a body', async () => {
    const res = await app.inject({ method: 'HEAD', url: '/live' });
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe('');
  });
});

describe('assets', () => {
  it('serves hashed public assets as immutable', async () => {
    const res = await get('/assets/index-AbC123.js');
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe('console.log("public bundle")');
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(res.headers['content-type']).toMatch(/javascript/);
  });

  it('serves the admin app assets under /admin/assets', async () => {
    const res = await get('/admin/assets/index-XyZ789.js');
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe('console.log("admin bundle")');
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });

  it('serves other files of each dist, not cached for ever', async () => {
    const publicIcon = await get('/favicon.svg');
    expect(publicIcon.statusCode).toBe(200);
    expect(publicIcon.body).not.toContain('admin');
    expect(publicIcon.headers['cache-control']).toBe('no-cache');
    const adminIcon = await get('/admin/favicon.svg');
    expect(adminIcon.statusCode).toBe(200);
    expect(adminIcon.body).toContain('<title>admin</title>');
  });

  it('answers a missing asset with 404, not a page', async () => {
    const res = await get('/assets/missing-123.js');
    expect(res.statusCode).toBe(404);
    expect(res.body).not.toBe(PUBLIC_INDEX);
  });

  it.each([
    '/..%2fsecret.txt',
    '/assets/..%2f..%2fsecret.txt',
    '/admin/..%2fsecret.txt',
    '/%2e%2e/secret.txt',
  ])('never serves files outside the dists (%s)', async (url) => {
    const res = await get(url);
    expect(res.body).not.toContain('outside the dists');
    // An index page at most: the path still names a page, never the file.
    expect([PUBLIC_INDEX, ADMIN_INDEX, '']).toContain(res.statusCode === 200 ? res.body : '');
  });
});

describe('the API beside the web apps', () => {
  it('answers unknown /api paths with a JSON 404', async () => {
    for (const method of ['GET', 'POST', 'DELETE'] as const) {
      const res = await app.inject({ method, url: '/api/does-not-exist' });
      expect(res.statusCode).toBe(404);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(res.json()).toMatchObject({ statusCode: 404 });
    }
  });

  it('publishes the OpenAPI document and its UI', async () => {
    const json = await get('/api/docs-json');
    expect(json.statusCode).toBe(200);
    const document = json.json();
    expect(Object.keys(document.paths)).toEqual(
      expect.arrayContaining(['/api/beta-signup', '/api/admin/login', '/api/dashboard/metrics']),
    );
    expect(
      document.paths['/api/beta-signup'].post.requestBody.content['application/json'].schema.required,
    ).toEqual(['email', 'region']);
    const ui = await get('/api/docs');
    expect(ui.statusCode).toBe(200);
    expect(ui.headers['content-type']).toMatch(/^text\/html/);
    const bundle = await get('/api/docs/swagger-ui-bundle.js');
    expect(bundle.statusCode).toBe(200);
    expect(bundle.headers['content-type']).toMatch(/javascript/);
  });

  it('tells the public pages the number to text and the contact address', async () => {
    const res = await get('/api/public-config');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      phoneNumber: expect.stringMatching(/^\+\d{8,15}$/),
      contactEmail: expect.stringContaining('@'),
    });
    const configured = await gw.startAnother({
      twilioPhoneNumber: '+15035550199',
      contactEmail: 'garden@example.org',
    });
    const custom = await configured.inject({ method: 'GET', url: '/api/public-config' });
    expect(custom.json()).toEqual({ phoneNumber: '+15035550199', contactEmail: 'garden@example.org' });
  });

  it('keeps health and metrics reachable', async () => {
    expect((await get('/health/live')).statusCode).toBe(200);
    expect((await get('/health/ready')).statusCode).toBe(200);
    const metrics = await get('/metrics');
    expect(metrics.statusCode).toBe(200);
    expect(metrics.body).toContain('process_cpu');
  });
});

describe('when the web apps are not built', () => {
  let bare: NestFastifyApplication;
  beforeAll(async () => {
    bare = await gw.startAnother({
      webPublicDist: path.join(dir, 'missing-public'),
      webAdminDist: path.join(dir, 'missing-admin'),
    });
  });

  it('serves a page saying how to build them instead of failing', async () => {
    const home = await bare.inject({ method: 'GET', url: '/' });
    expect(home.statusCode).toBe(200);
    expect(home.body).toContain('npm run build');
    const admin = await bare.inject({ method: 'GET', url: '/admin/dashboard' });
    expect(admin.statusCode).toBe(200);
    expect(admin.body).toContain('web-admin');
    const unknown = await bare.inject({ method: 'GET', url: '/unknown' });
    expect(unknown.statusCode).toBe(404);
    expect((await bare.inject({ method: 'GET', url: '/assets/index.js' })).statusCode).toBe(404);
  });
});

describe('over a real socket', () => {
  it('listens on a free port and serves pages and the API', async () => {
    await app.listen({ port: 0, host: '127.0.0.1' });
    const address = app.getHttpServer().address();
    if (address === null || typeof address === 'string') throw new Error('not listening on a TCP port');
    const base = `http://127.0.0.1:${address.port}`;
    const page = await fetch(`${base}/live`);
    expect(page.status).toBe(200);
    expect(await page.text()).toBe(PUBLIC_INDEX);
    const status = await fetch(`${base}/api/admin/auth-status`);
    expect(await status.json()).toEqual({ authenticated: false, user: null });
  });
});
