import http from 'node:http';

/** The one origin of a single-host run: Twilio's webhooks go to sms-gateway, everything else to api-gateway. */
export interface EdgeOptions {
  apiGatewayUrl: string;
  smsGatewayUrl: string;
}

export type EdgeUpstream = 'api-gateway' | 'sms-gateway';

// Hop-by-hop headers describe one connection, never the next one (RFC 9110 §7.6.1).
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-authenticate',
  'proxy-authorization',
  'proxy-connection',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
]);

export function upstreamFor(url: string): EdgeUpstream {
  const pathname = url.split('?')[0] ?? '';
  return pathname === '/webhooks' || pathname.startsWith('/webhooks/') ? 'sms-gateway' : 'api-gateway';
}

function firstValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/** The request's headers as the upstream should see them: hop-by-hop removed, X-Forwarded-* added. */
export function forwardedHeaders(req: http.IncomingMessage): http.OutgoingHttpHeaders {
  const headers: http.OutgoingHttpHeaders = {};
  const named = new Set(
    (firstValue(req.headers.connection) ?? '')
      .split(',')
      .map((h) => h.trim().toLowerCase())
      .filter(Boolean),
  );
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined || HOP_BY_HOP.has(name) || named.has(name)) continue;
    headers[name] = value;
  }
  const clientAddress = req.socket.remoteAddress ?? '';
  const priorFor = firstValue(req.headers['x-forwarded-for']);
  headers['x-forwarded-for'] = priorFor ? `${priorFor}, ${clientAddress}` : clientAddress;
  headers['x-forwarded-proto'] =
    firstValue(req.headers['x-forwarded-proto']) ?? ('encrypted' in req.socket ? 'https' : 'http');
  headers['x-forwarded-host'] = firstValue(req.headers['x-forwarded-host']) ?? req.headers.host ?? '';
  return headers;
}

function responseHeaders(upstream: http.IncomingMessage): http.OutgoingHttpHeaders {
  const headers: http.OutgoingHttpHeaders = {};
  for (const [name, value] of Object.entries(upstream.headers)) {
    if (value === undefined || HOP_BY_HOP.has(name)) continue;
    headers[name] = value;
  }
  return headers;
}

/** A reverse proxy that streams request and response bodies in both directions. */
export function createEdge(options: EdgeOptions): http.Server {
  const targets: Record<EdgeUpstream, URL> = {
    'api-gateway': new URL(options.apiGatewayUrl),
    'sms-gateway': new URL(options.smsGatewayUrl),
  };
  const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });

  const server = http.createServer((req, res) => {
    const name = upstreamFor(req.url ?? '/');
    const target = targets[name];
    const upstreamReq = http.request(
      {
        protocol: target.protocol,
        hostname: target.hostname,
        port: target.port,
        method: req.method,
        path: req.url,
        headers: forwardedHeaders(req),
        agent,
      },
      (upstreamRes) => {
        res.writeHead(upstreamRes.statusCode ?? 502, upstreamRes.statusMessage, responseHeaders(upstreamRes));
        upstreamRes.pipe(res);
        upstreamRes.on('error', () => res.destroy());
      },
    );
    upstreamReq.on('error', (error: NodeJS.ErrnoException) => {
      if (res.headersSent) {
        res.destroy();
        return;
      }
      res.writeHead(502, { 'content-type': 'text/plain; charset=utf-8' });
      res.end(`502: ${name} is not reachable (${error.code ?? error.message})`);
    });
    // A client that goes away mid-request takes its upstream request with it.
    res.on('close', () => {
      if (!res.writableFinished) upstreamReq.destroy();
    });
    req.pipe(upstreamReq);
  });
  server.on('close', () => agent.destroy());
  return server;
}
