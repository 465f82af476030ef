import fs from 'node:fs';
import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { securityHeaders } from '@sprout/platform/security-headers';
import { type Edge, canonicalPath, createEdge, isInternalPath, upstreamFor } from '../src/edge';
import { edgeMetric, until } from './edge-support';

interface Seen {
  name: string;
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

function listen(server: http.Server): Promise<number> {
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)),
  );
}

function close(server: http.Server): Promise<void> {
  server.closeAllConnections();
  return new Promise((resolve) => server.close(() => resolve()));
}

/** An upstream that records what reached it and echoes it back. */
function recordingUpstream(name: string, seen: Seen[]): http.Server {
  return http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      seen.push({ name, method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
      res.setHeader('x-upstream', name);
      res.setHeader('set-cookie', ['a=1; HttpOnly', 'b=2']);
      res.end(`${name}:${body}`);
    });
  });
}

function request(
  port: number,
  options: {
    method?: string;
    path: string;
    body?: string | Buffer;
    headers?: http.OutgoingHttpHeaders;
    agent?: http.Agent;
  },
): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        method: options.method ?? 'GET',
        path: options.path,
        headers: options.headers,
        ...(options.agent ? { agent: options.agent } : {}),
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: Buffer.concat(chunks).toString('utf8'),
          }),
        );
      },
    );
    req.on('error', reject);
    req.end(options.body);
  });
}

/** A request written by hand: paths with "#", backslashes and the like, exactly as sent. */
function rawRequest(
  port: number,
  text: string,
): Promise<{ status: number; headers: Record<string, string> }> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () => socket.write(text));
    let received = '';
    socket.on('data', (chunk: Buffer) => {
      received += chunk.toString('latin1');
    });
    socket.on('error', reject);
    socket.on('close', () => {
      const [head = ''] = received.split('\r\n\r\n');
      const [statusLine = '', ...lines] = head.split('\r\n');
      const headers: Record<string, string> = {};
      for (const line of lines) {
        const colon = line.indexOf(':');
        headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
      }
      resolve({ status: Number(statusLine.split(' ')[1]), headers });
    });
  });
}

describe('upstreamFor', () => {
  it('sends Twilio webhooks to sms-gateway and everything else to api-gateway', () => {
    expect(upstreamFor('/webhooks/twilio/sms')).toBe('sms-gateway');
    expect(upstreamFor('/webhooks?x=1')).toBe('sms-gateway');
    expect(upstreamFor('/webhooksfoo')).toBe('api-gateway');
    expect(upstreamFor('/api/admin/users')).toBe('api-gateway');
    expect(upstreamFor('/admin')).toBe('api-gateway');
    expect(upstreamFor('/')).toBe('api-gateway');
    expect(upstreamFor('/api/x?next=/webhooks/a')).toBe('api-gateway');
  });
});

describe('edge', () => {
  const seen: Seen[] = [];
  const api = recordingUpstream('api-gateway', seen);
  const sms = recordingUpstream('sms-gateway', seen);
  let edge: http.Server;
  let edgePort: number;

  beforeAll(async () => {
    const apiPort = await listen(api);
    const smsPort = await listen(sms);
    edge = createEdge({
      apiGatewayUrl: `http://127.0.0.1:${apiPort}`,
      smsGatewayUrl: `http://127.0.0.1:${smsPort}`,
    });
    edgePort = await listen(edge);
  });

  afterAll(async () => {
    await close(edge);
    await close(api);
    await close(sms);
  });

  beforeEach(() => {
    seen.length = 0;
  });

  it('routes /webhooks/** to sms-gateway with the body, query and forwarding headers', async () => {
    const form = 'From=%2B15035550100&Body=hello';
    const res = await request(edgePort, {
      method: 'POST',
      path: '/webhooks/twilio/sms?x=1',
      body: form,
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        'x-twilio-signature': 'sig',
        host: 'example.test',
      },
    });
    expect(res.status).toBe(200);
    expect(res.body).toBe(`sms-gateway:${form}`);
    expect(seen).toHaveLength(1);
    const hit = seen[0]!;
    expect(hit).toMatchObject({
      name: 'sms-gateway',
      method: 'POST',
      url: '/webhooks/twilio/sms?x=1',
      body: form,
    });
    expect(hit.headers['x-twilio-signature']).toBe('sig');
    expect(hit.headers.host).toBe('example.test');
    expect(hit.headers['x-forwarded-host']).toBe('example.test');
    expect(hit.headers['x-forwarded-proto']).toBe('http');
    expect(hit.headers['x-forwarded-for']).toBe('127.0.0.1');
  });

  it('routes everything else to api-gateway and passes response headers back', async () => {
    const res = await request(edgePort, { path: '/api/admin/stats', headers: { cookie: 'sid=abc' } });
    expect(res.body).toBe('api-gateway:');
    expect(res.headers['x-upstream']).toBe('api-gateway');
    expect(res.headers['set-cookie']).toEqual(['a=1; HttpOnly', 'b=2']);
    expect(seen[0]!.headers.cookie).toBe('sid=abc');
  });

  it("overwrites a client's X-Forwarded-For, -Proto and -Host: it cannot claim another IP or https", async () => {
    await request(edgePort, {
      path: '/',
      headers: {
        'x-forwarded-for': '203.0.113.7',
        'x-forwarded-proto': 'https',
        'x-forwarded-host': 'evil.example',
        forwarded: 'for=203.0.113.7;proto=https',
        host: 'sprout.test',
      },
    });
    expect(seen[0]!.headers['x-forwarded-for']).toBe('127.0.0.1');
    expect(seen[0]!.headers['x-forwarded-proto']).toBe('http');
    expect(seen[0]!.headers['x-forwarded-host']).toBe('sprout.test');
    expect(seen[0]!.headers.forwarded).toBeUndefined();
  });

  it("keeps a trusted proxy's X-Forwarded-For and appends the proxy's address", async () => {
    const trusting = createEdge({
      apiGatewayUrl: `http://127.0.0.1:${(api.address() as AddressInfo).port}`,
      smsGatewayUrl: `http://127.0.0.1:${(sms.address() as AddressInfo).port}`,
      trustedProxies: ['127.0.0.0/8'],
    });
    try {
      await request(await listen(trusting), {
        path: '/',
        headers: { 'x-forwarded-for': '198.51.100.1, 203.0.113.7', 'x-forwarded-proto': 'https' },
      });
    } finally {
      await close(trusting);
    }
    expect(seen[0]!.headers['x-forwarded-for']).toBe('198.51.100.1, 203.0.113.7, 127.0.0.1');
    expect(seen[0]!.headers['x-forwarded-proto']).toBe('https');
  });

  it("does not route /metrics or /api/docs however they are spelled: they stay on the services' own ports", async () => {
    const blocked = [
      '/metrics',
      '/metrics/',
      '/metrics#x',
      '/metrics?x=1',
      '/%6Detrics',
      '/%6detrics',
      '/%256detrics',
      '/%25256detrics',
      '//metrics',
      '/./metrics/.',
      '/metrics;x',
      '/metrics;jsessionid=1/',
      '/metrics.',
      '/metrics..',
      '/metrics%20',
      '/METRICS',
      '/\\metrics',
      '/webhooks/../metrics',
      '/api/x/..%2f..%2fmetrics',
      '/%2e/metrics',
      '/api/docs',
      '/api/docs/',
      '/api/docs#/default',
      '/api/./docs',
      '/api//docs',
      '/api/docs-json',
      '/API/DOCS-JSON',
      '/api/docs-yaml',
      '/api/docs.json',
      '/api%2fdocs-json',
      '/api%252fdocs',
      '/api/admin/../docs',
      '/api\\docs',
      '/api;x/docs;y',
      '//api/docs',
    ];
    for (const path of blocked) {
      expect({ path, internal: isInternalPath(path) }).toEqual({ path, internal: true });
      const res = await rawRequest(
        edgePort,
        `GET ${path} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n`,
      );
      expect({ path, status: res.status }).toEqual({ path, status: 404 });
      expect(res.headers).toMatchObject(securityHeaders());
    }
    expect(seen).toHaveLength(0);
    for (const path of [
      '/api/docsx',
      '/api/admin/metrics',
      '/metricsx',
      '/api/admin/users?q=/metrics',
      '/admin#/metrics',
    ])
      expect({ path, internal: isInternalPath(path) }).toEqual({ path, internal: false });
    expect(canonicalPath('/A//b/./c/../d;x/e./%2566?q#f')).toBe('/a/b/d/e/f');
  });

  it('adds the security headers an upstream answer lacks, and keeps those it sets', async () => {
    const res = await request(edgePort, { path: '/admin' });
    expect(res.headers['x-upstream']).toBe('api-gateway');
    expect(res.headers).toMatchObject(securityHeaders());
  });

  it('streams a large body through unchanged', async () => {
    const big = 'x'.repeat(900 * 1024);
    const res = await request(edgePort, { method: 'PUT', path: '/api/upload', body: big });
    expect(res.body.length).toBe('api-gateway:'.length + big.length);
  });

  it('sends webhooks and API requests one after another over one kept-alive upstream connection each', async () => {
    const upstreams = {
      sms: recordingUpstream('sms-gateway', []),
      api: recordingUpstream('api-gateway', []),
    };
    const opened = { sms: 0, api: 0 };
    upstreams.sms.on('connection', () => (opened.sms += 1));
    upstreams.api.on('connection', () => (opened.api += 1));
    const own = createEdge({
      apiGatewayUrl: `http://127.0.0.1:${await listen(upstreams.api)}`,
      smsGatewayUrl: `http://127.0.0.1:${await listen(upstreams.sms)}`,
    });
    const ownPort = await listen(own);
    try {
      for (let i = 0; i < 20; i += 1) {
        const webhook = await request(ownPort, {
          method: 'POST',
          path: '/webhooks/twilio/sms',
          body: `MessageSid=SM${i}`,
          headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-twilio-signature': 'sig' },
        });
        expect(webhook.status).toBe(200);
        expect((await request(ownPort, { path: '/health/live' })).status).toBe(200);
      }
    } finally {
      await close(own);
      await close(upstreams.sms);
      await close(upstreams.api);
    }
    expect(opened).toEqual({ sms: 1, api: 1 });
  });

  it('answers 502 naming the upstream when it is down', async () => {
    const idle = http.createServer();
    const downPort = await listen(idle);
    const down = createEdge({
      apiGatewayUrl: 'http://127.0.0.1:9',
      smsGatewayUrl: `http://127.0.0.1:${downPort}`,
    });
    const port = await listen(down);
    try {
      const res = await request(port, { path: '/admin' });
      expect(res.status).toBe(502);
      expect(res.body).toContain('api-gateway');
      expect(res.headers).toMatchObject(securityHeaders());
    } finally {
      await close(down);
      await close(idle);
    }
  });
});

/** A free port nothing listens on (yet). */
async function freePort(): Promise<number> {
  const probe = http.createServer();
  const port = await listen(probe);
  await close(probe);
  return port;
}

function webhookForm(sid: string): string {
  return new URLSearchParams({ MessageSid: sid, From: '+15035550100', Body: 'hello' }).toString();
}

/** A stand-in sms-gateway: stores each MessageSid once (as the real webhook does) and answers 200. */
function webhookUpstream(stored: Map<string, number>, options: { resetFirst?: number } = {}): http.Server {
  let resets = options.resetFirst ?? 0;
  return http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const sid = new URLSearchParams(Buffer.concat(chunks).toString('utf8')).get('MessageSid') ?? '';
      stored.set(sid, (stored.get(sid) ?? 0) + 1);
      // Dies after storing, before answering: the edge cannot know, so it sends again.
      if (resets > 0) {
        resets -= 1;
        req.socket.destroy();
        return;
      }
      res.writeHead(200, { 'content-type': 'text/xml' }).end('<Response/>');
    });
  });
}

describe('edge: Twilio webhooks survive an sms-gateway restart', () => {
  const servers: http.Server[] = [];
  afterEach(async () => {
    for (const s of servers.splice(0)) if (s.listening) await close(s);
  });

  const edgeTo = async (smsPort: number, budgetMs?: number): Promise<number> => {
    const edge = createEdge({
      apiGatewayUrl: 'http://127.0.0.1:9',
      smsGatewayUrl: `http://127.0.0.1:${smsPort}`,
      ...(budgetMs === undefined ? {} : { webhookRetryBudgetMs: budgetMs }),
    });
    servers.push(edge);
    return listen(edge);
  };

  it('retries a webhook while sms-gateway is down for 2 s, then it is answered 200 and stored once', async () => {
    const smsPort = await freePort();
    const edgePort = await edgeTo(smsPort);
    const stored = new Map<string, number>();
    const upstream = webhookUpstream(stored);
    servers.push(upstream);
    const startedAt = Date.now();
    setTimeout(() => upstream.listen(smsPort, '127.0.0.1'), 2_000);
    const res = await request(edgePort, {
      method: 'POST',
      path: '/webhooks/twilio/sms',
      body: webhookForm('SM00000000000000000000000000000001'),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    const elapsed = Date.now() - startedAt;
    expect(res.status).toBe(200);
    expect(elapsed).toBeGreaterThanOrEqual(1_900);
    expect(elapsed).toBeLessThan(5_000);
    expect([...stored]).toEqual([['SM00000000000000000000000000000001', 1]]);
  });

  it('sends again when the upstream resets the connection mid-request; the MessageSid is stored once', async () => {
    const stored = new Map<string, number>();
    // Counts deliveries; the real webhook keeps one row per MessageSid however often it comes.
    const upstream = webhookUpstream(stored, { resetFirst: 1 });
    servers.push(upstream);
    const edgePort = await edgeTo(await listen(upstream));
    const res = await request(edgePort, {
      method: 'POST',
      path: '/webhooks/twilio/status',
      body: webhookForm('SM00000000000000000000000000000002'),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(res.status).toBe(200);
    expect(stored.get('SM00000000000000000000000000000002')).toBe(2);
    expect(stored.size).toBe(1);
  });

  it('gives up with a 502 once the retry budget is spent', async () => {
    const edgePort = await edgeTo(await freePort(), 800);
    const startedAt = Date.now();
    const res = await request(edgePort, {
      method: 'POST',
      path: '/webhooks/twilio/sms',
      body: webhookForm('SM00000000000000000000000000000003'),
    });
    expect(res.status).toBe(502);
    expect(res.body).toMatch(/sms-gateway is not reachable \(ECONNREFUSED, \d+ attempts\)/);
    expect(Date.now() - startedAt).toBeLessThan(2_000);
  });

  it('does not retry other requests', async () => {
    const stored = new Map<string, number>();
    const upstream = webhookUpstream(stored, { resetFirst: 1 });
    servers.push(upstream);
    const edgePort = await edgeTo(await listen(upstream));
    const res = await request(edgePort, { method: 'POST', path: '/webhooks/other', body: 'MessageSid=SMx' });
    expect(res.status).toBe(502);
    expect(stored.get('SMx')).toBe(1);
  });
});

describe('edge: oversized bodies', () => {
  const servers: http.Server[] = [];
  const agents: http.Agent[] = [];
  afterEach(async () => {
    for (const a of agents.splice(0)) a.destroy();
    for (const s of servers.splice(0)) if (s.listening) await close(s);
  });

  /** Like Fastify: a declared body over the limit gets 413 at once, unread, and the socket closes. */
  const refusingUpstream = (limit: number): http.Server =>
    http.createServer((req, res) => {
      if (Number(req.headers['content-length']) > limit) {
        res.writeHead(413, { 'content-type': 'application/json', connection: 'close' });
        res.end(JSON.stringify({ statusCode: 413, error: 'Payload Too Large' }));
        return;
      }
      req.resume();
      req.on('end', () => res.end('ok'));
    });

  const setup = async (upstreamLimit: number, maxBodyBytes?: number) => {
    const upstream = refusingUpstream(upstreamLimit);
    servers.push(upstream);
    const upstreamPort = await listen(upstream);
    const edge = createEdge({
      apiGatewayUrl: `http://127.0.0.1:${upstreamPort}`,
      smsGatewayUrl: `http://127.0.0.1:${upstreamPort}`,
      ...(maxBodyBytes === undefined ? {} : { maxBodyBytes }),
    });
    servers.push(edge);
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    agents.push(agent);
    return { port: await listen(edge), agent };
  };

  it("answers 413 for a body over the services' limit, and the next request on that connection is fast", async () => {
    const { port, agent } = await setup(1024 * 1024);
    const big = Buffer.alloc(3 * 1024 * 1024, 120);
    for (let i = 0; i < 5; i += 1) {
      const refused = await request(port, { method: 'POST', path: '/api/x', body: big, agent });
      expect(refused.status).toBe(413);
      expect(refused.headers).toMatchObject(securityHeaders());
      expect(JSON.parse(refused.body)).toMatchObject({ statusCode: 413 });
      const startedAt = Date.now();
      const next = await request(port, { method: 'POST', path: '/api/y', body: 'small', agent });
      expect(next.status).toBe(200);
      expect(Date.now() - startedAt).toBeLessThan(1_000);
    }
  });

  it("passes an upstream's own 413 through (not a 502) and keeps the client's connection usable", async () => {
    const { port, agent } = await setup(1024, 1024 * 1024);
    const refused = await request(port, {
      method: 'POST',
      path: '/api/x',
      body: Buffer.alloc(16 * 1024, 120),
      agent,
    });
    expect(refused.status).toBe(413);
    expect(JSON.parse(refused.body)).toEqual({ statusCode: 413, error: 'Payload Too Large' });
    const startedAt = Date.now();
    const next = await request(port, { method: 'POST', path: '/api/y', body: 'small', agent });
    expect(next.status).toBe(200);
    expect(Date.now() - startedAt).toBeLessThan(1_000);
  });

  it('refuses a webhook over the limit with 413 without sending it on', async () => {
    const { port } = await setup(10 * 1024 * 1024, 64 * 1024);
    const res = await request(port, {
      method: 'POST',
      path: '/webhooks/twilio/sms',
      body: Buffer.alloc(100 * 1024, 120),
    });
    expect(res.status).toBe(413);
  });
});

/** What a stand-in sms-gateway received, bytes and all. */
interface Received {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

/** A stand-in sms-gateway answering each request with `statusFor` (default 200). */
function capturingUpstream(
  received: Received[],
  statusFor: (r: Received) => number = () => 200,
): http.Server {
  return http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const entry = {
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks),
      };
      received.push(entry);
      const status = statusFor(entry);
      res
        .writeHead(status, { 'content-type': 'text/plain' })
        .end(status === 200 ? '<Response></Response>' : 'no');
    });
  });
}

describe('edge: the webhook spool', () => {
  const servers: http.Server[] = [];
  const dirs: string[] = [];
  const lines: string[] = [];
  afterEach(async () => {
    for (const s of servers.splice(0)) if (s.listening) await close(s);
    for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
    lines.length = 0;
  });

  const spoolDir = (): string => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sprout-edge-spool-test-'));
    dirs.push(dir);
    return dir;
  };

  const startEdge = async (
    smsPort: number,
    dir: string,
    apiPort = 9,
  ): Promise<{ edge: Edge; port: number }> => {
    const edge = createEdge({
      apiGatewayUrl: `http://127.0.0.1:${apiPort}`,
      smsGatewayUrl: `http://127.0.0.1:${smsPort}`,
      webhookRetryBudgetMs: 300,
      spoolDir: dir,
      log: (line) => lines.push(line),
    });
    servers.push(edge);
    return { edge, port: await listen(edge) };
  };

  const pending = (dir: string): string[] => fs.readdirSync(path.join(dir, 'pending'));

  // Not UTF-8 on purpose: the body goes back byte for byte.
  const bodyOf = (sid: string): Buffer =>
    Buffer.concat([Buffer.from(`${webhookForm(sid)}&Extra=`), Buffer.from([0xff, 0xfe, 0x25])]);

  const postWebhook = (port: number, sid: string, headers: http.OutgoingHttpHeaders = {}) =>
    request(port, {
      method: 'POST',
      path: '/webhooks/twilio/sms?source=test',
      body: bodyOf(sid),
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        'x-twilio-signature': `sig-${sid}`,
        host: 'sprout.example',
        ...headers,
      },
    });

  it('answers 200 with empty TwiML and keeps the webhook when no sms-gateway answers', async () => {
    const dir = spoolDir();
    const { edge, port } = await startEdge(await freePort(), dir);
    const res = await postWebhook(port, 'SM00000000000000000000000000000101');
    expect(res.status).toBe(200);
    expect(res.body).toBe('<?xml version="1.0" encoding="UTF-8"?><Response/>');
    expect(res.headers['content-type']).toBe('text/xml; charset=utf-8');
    expect(res.headers).toMatchObject(securityHeaders());
    expect(pending(dir)).toHaveLength(1);
    expect(await edgeMetric(edge, 'sprout_edge_webhooks_spooled_total')).toBe(1);
    expect(lines.join('\n')).toContain('spooled');
  });

  it('keeps a webhook whose client hung up while the edge was still retrying', async () => {
    const dir = spoolDir();
    const edge = createEdge({
      apiGatewayUrl: 'http://127.0.0.1:9',
      smsGatewayUrl: `http://127.0.0.1:${await freePort()}`,
      webhookRetryBudgetMs: 10_000,
      spoolDir: dir,
      log: (line) => lines.push(line),
    });
    servers.push(edge);
    const port = await listen(edge);
    // Like Twilio giving up on a slow answer: the request is sent whole, then the socket closes.
    const body = bodyOf('SM00000000000000000000000000000104');
    const socket = net.connect(port, '127.0.0.1', () => {
      socket.write(
        `POST /webhooks/twilio/sms HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/x-www-form-urlencoded\r\n` +
          `X-Twilio-Signature: sig\r\nContent-Length: ${body.length}\r\n\r\n`,
      );
      socket.write(body);
      setTimeout(() => socket.destroy(), 300);
    });
    await until(
      async () => (await edgeMetric(edge, 'sprout_edge_webhooks_spooled_total')) === 1,
      'the webhook kept',
    );
    expect(pending(dir)).toHaveLength(1);
  });

  it('spools only signed Twilio webhooks: never an unsigned post, another path or an API request', async () => {
    const dir = spoolDir();
    const { port } = await startEdge(await freePort(), dir);
    const unsigned = await request(port, {
      method: 'POST',
      path: '/webhooks/twilio/sms',
      body: webhookForm('SM00000000000000000000000000000102'),
    });
    expect(unsigned.status).toBe(502);
    expect(unsigned.headers).toMatchObject(securityHeaders());
    // The control: the same post, signed, is kept.
    const signed = await postWebhook(port, 'SM00000000000000000000000000000103');
    expect(signed.status).toBe(200);
    // A dotted path that would leave /webhooks/twilio/, and an API request: never kept.
    for (const path of ['/webhooks/twilio/%2e%2e/%2e%2e/api/admin/users', '/api/admin/users']) {
      const res = await request(port, {
        method: 'POST',
        path,
        body: 'x=1',
        headers: { 'x-twilio-signature': 'sig' },
      });
      expect({ path, status: res.status }).toEqual({ path, status: 502 });
    }
    expect(pending(dir)).toHaveLength(1);
  });

  it('replays verbatim, oldest first, once sms-gateway is back, and deletes each file only after its 2xx', async () => {
    const dir = spoolDir();
    const smsPort = await freePort();
    const { edge, port } = await startEdge(smsPort, dir);
    const sids = ['SM00000000000000000000000000000111', 'SM00000000000000000000000000000112'];
    for (const sid of sids) expect((await postWebhook(port, sid)).status).toBe(200);
    expect(pending(dir)).toHaveLength(2);

    const received: Received[] = [];
    const upstream = capturingUpstream(received);
    servers.push(upstream);
    await new Promise<void>((resolve) => upstream.listen(smsPort, '127.0.0.1', resolve));
    await until(
      async () => (await edgeMetric(edge, 'sprout_edge_webhooks_replayed_total')) === 2,
      'two replays',
    );

    expect(pending(dir)).toEqual([]);
    expect(received.map((r) => new URLSearchParams(r.body.toString('latin1')).get('MessageSid'))).toEqual(
      sids,
    );
    const first = received[0]!;
    expect(first.method).toBe('POST');
    expect(first.url).toBe('/webhooks/twilio/sms?source=test');
    expect(first.headers['x-twilio-signature']).toBe(`sig-${sids[0]}`);
    expect(first.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(first.headers.host).toBe('sprout.example');
    expect(first.headers['x-forwarded-for']).toBe('127.0.0.1');
    expect(first.body.equals(bodyOf(sids[0]!))).toBe(true);
    expect(await edgeMetric(edge, 'sprout_edge_webhook_spool_pending')).toBe(0);
  });

  it('keeps a webhook whose replay got a 503 for the next round, and moves a refused one aside', async () => {
    const dir = spoolDir();
    const smsPort = await freePort();
    const { edge, port } = await startEdge(smsPort, dir);
    const refused = 'SM00000000000000000000000000000121';
    const accepted = 'SM00000000000000000000000000000122';
    for (const sid of [refused, accepted]) expect((await postWebhook(port, sid)).status).toBe(200);

    // Starting: 503 to everything for the first three answers; then a 403 to the forged one.
    const received: Received[] = [];
    const upstream = capturingUpstream(received, (r) =>
      received.length <= 3 ? 503 : r.headers['x-twilio-signature'] === `sig-${refused}` ? 403 : 200,
    );
    servers.push(upstream);
    await new Promise<void>((resolve) => upstream.listen(smsPort, '127.0.0.1', resolve));
    const done = async (): Promise<boolean> =>
      (await edgeMetric(edge, 'sprout_edge_webhooks_replayed_total')) === 1 &&
      (await edgeMetric(edge, 'sprout_edge_webhooks_dropped_total', { reason: 'rejected' })) === 1;
    await until(done, 'one replay taken and one refused');

    expect(pending(dir)).toEqual([]);
    expect(received.length).toBeGreaterThanOrEqual(5);
    expect(fs.readdirSync(path.join(dir, 'rejected')).filter((n) => n.endsWith('.json'))).toHaveLength(1);
    const reason = fs
      .readdirSync(path.join(dir, 'rejected'))
      .filter((n) => n.endsWith('.reason.txt'))
      .map((n) => fs.readFileSync(path.join(dir, 'rejected', n), 'utf8'));
    expect(reason).toEqual([expect.stringContaining('sms-gateway answered 403')]);
    expect(lines.join('\n')).toMatch(
      /refused spooled webhook POST \/webhooks\/twilio\/sms\?source=test .* 403/,
    );
  });

  it('replays what a previous edge kept, after a restart', async () => {
    const dir = spoolDir();
    const smsPort = await freePort();
    const before = await startEdge(smsPort, dir);
    expect((await postWebhook(before.port, 'SM00000000000000000000000000000131')).status).toBe(200);
    await close(before.edge);

    const received: Received[] = [];
    const upstream = capturingUpstream(received);
    servers.push(upstream);
    await new Promise<void>((resolve) => upstream.listen(smsPort, '127.0.0.1', resolve));
    await startEdge(smsPort, dir);
    await until(() => received.length === 1 && pending(dir).length === 0, 'the replay');
  });
});
