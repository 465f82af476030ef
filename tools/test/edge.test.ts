import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createEdge, upstreamFor } from '../src/edge';

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
  options: { method?: string; path: string; body?: string; headers?: http.OutgoingHttpHeaders },
): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        method: options.method ?? 'GET',
        path: options.path,
        headers: options.headers,
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

  it('appends to an existing X-Forwarded-For and keeps the original protocol', async () => {
    await request(edgePort, {
      path: '/',
      headers: { 'x-forwarded-for': '203.0.113.7', 'x-forwarded-proto': 'https' },
    });
    expect(seen[0]!.headers['x-forwarded-for']).toBe('203.0.113.7, 127.0.0.1');
    expect(seen[0]!.headers['x-forwarded-proto']).toBe('https');
  });

  it('streams a large body through unchanged', async () => {
    const big = 'x'.repeat(3 * 1024 * 1024);
    const res = await request(edgePort, { method: 'PUT', path: '/api/upload', body: big });
    expect(res.body.length).toBe('api-gateway:'.length + big.length);
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
    } finally {
      await close(down);
      await close(idle);
    }
  });
});
