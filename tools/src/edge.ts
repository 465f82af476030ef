import { lookup as dnsLookup } from 'node:dns';
import http from 'node:http';
import { BlockList, isIP, type LookupFunction } from 'node:net';

/** The one origin of a single-host run: Twilio's webhooks go to sms-gateway, everything else to api-gateway. */
export interface EdgeOptions {
  apiGatewayUrl: string;
  smsGatewayUrl: string;
  /**
   * Addresses and CIDRs of proxies in front of the edge (an ingress) whose X-Forwarded-* are kept
   * and appended to. Anyone else's are overwritten: the edge is then the first hop. Default none.
   */
  trustedProxies?: readonly string[];
  /** How long a Twilio webhook is retried on a refused or reset connection (Twilio waits 15 s). */
  webhookRetryBudgetMs?: number;
  /**
   * Request bodies larger than this get a 413 from the edge, before any upstream: an upstream
   * that refuses a body mid-upload resets its connection, which can lose its own 413.
   */
  maxBodyBytes?: number;
  /** Longest wait for a TCP connection to an upstream before that attempt counts as failed. */
  connectTimeoutMs?: number;
}

export type EdgeUpstream = 'api-gateway' | 'sms-gateway';

/** Every service's body limit (libs/platform bootstrap): a larger body is refused here, whole. */
export const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;
/** Past this much of a refused body the client's connection is cut instead of read to its end. */
const DRAIN_MAX_BYTES = 64 * 1024 * 1024;
const DEFAULT_RETRY_BUDGET_MS = 12_000;
const DEFAULT_CONNECT_TIMEOUT_MS = 2_000;
const FIRST_BACKOFF_MS = 100;
const MAX_BACKOFF_MS = 1_000;

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

/** Failures after which the upstream cannot have seen the request, or died while handling it. */
const RETRYABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ETIMEDOUT',
  'UPSTREAM_CONNECT_TIMEOUT',
]);
/** Answers of an upstream that is starting or closing (Fastify answers 503 while it closes). */
const RETRYABLE_STATUSES = new Set([502, 503, 504]);

export function upstreamFor(url: string): EdgeUpstream {
  const pathname = url.split('?')[0] ?? '';
  return pathname === '/webhooks' || pathname.startsWith('/webhooks/') ? 'sms-gateway' : 'api-gateway';
}

/**
 * Paths the edge never routes: metrics are scraped on each service's own port, and the API docs
 * are read on api-gateway's own port (or through a port-forward), not from the public origin.
 */
export function isInternalPath(url: string): boolean {
  let pathname = url.split('?')[0] ?? '';
  try {
    pathname = decodeURIComponent(pathname);
  } catch {
    // Left as sent: Fastify will not match a malformed path to a route either.
  }
  pathname = pathname.toLowerCase().replace(/\/{2,}/g, '/');
  const under = (prefix: string): boolean => pathname === prefix || pathname.startsWith(`${prefix}/`);
  return under('/metrics') || under('/api/docs') || pathname.startsWith('/api/docs-');
}

/** A Twilio webhook the edge may send again: sms-gateway stores it once per MessageSid. */
export function isRetryableWebhook(method: string | undefined, url: string): boolean {
  const pathname = url.split('?')[0] ?? '';
  return method === 'POST' && pathname.startsWith('/webhooks/twilio/');
}

function firstValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/** A predicate over peer addresses for a list of addresses and CIDRs. */
export function compileTrustedProxies(entries: readonly string[]): (address: string) => boolean {
  if (entries.length === 0) return () => false;
  const list = new BlockList();
  for (const raw of entries) {
    const entry = raw.trim();
    const [network = '', prefix] = entry.split('/');
    const family = isIP(network);
    if (family === 0) throw new Error(`trusted proxy "${entry}" is not an IP address or CIDR`);
    const type = family === 4 ? 'ipv4' : 'ipv6';
    if (prefix === undefined) list.addAddress(network, type);
    else list.addSubnet(network, Number(prefix), type);
  }
  return (address) => {
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1];
    const bare = mapped ?? address;
    const family = isIP(bare);
    return family !== 0 && list.check(bare, family === 4 ? 'ipv4' : 'ipv6');
  };
}

/**
 * The request's headers as the upstream should see them: hop-by-hop removed, X-Forwarded-*
 * written by the edge. A client's own X-Forwarded-For/Proto/Host are dropped (it could claim any
 * IP or https); only a trusted proxy's are kept, with its address appended.
 */
export function forwardedHeaders(
  req: http.IncomingMessage,
  isTrustedProxy: (address: string) => boolean = () => false,
): http.OutgoingHttpHeaders {
  const headers: http.OutgoingHttpHeaders = {};
  const named = new Set(
    (firstValue(req.headers.connection) ?? '')
      .split(',')
      .map((h) => h.trim().toLowerCase())
      .filter(Boolean),
  );
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined || HOP_BY_HOP.has(name) || named.has(name)) continue;
    if (name === 'forwarded' || name.startsWith('x-forwarded-')) continue;
    headers[name] = value;
  }
  const peer = req.socket.remoteAddress ?? '';
  const ownProto = 'encrypted' in req.socket ? 'https' : 'http';
  const ownHost = req.headers.host ?? '';
  if (isTrustedProxy(peer)) {
    const priorFor = req.headers['x-forwarded-for'];
    const chain = (Array.isArray(priorFor) ? priorFor.join(', ') : (priorFor ?? '')).trim();
    headers['x-forwarded-for'] = chain ? `${chain}, ${peer}` : peer;
    headers['x-forwarded-proto'] =
      firstValue(req.headers['x-forwarded-proto'])?.split(',')[0]?.trim() || ownProto;
    headers['x-forwarded-host'] = firstValue(req.headers['x-forwarded-host']) ?? ownHost;
  } else {
    headers['x-forwarded-for'] = peer;
    headers['x-forwarded-proto'] = ownProto;
    headers['x-forwarded-host'] = ownHost;
  }
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

/**
 * Resolves the upstream's name to every address and takes the one after the last tried, so a
 * retry goes to another replica when the name has several (compose's DNS, a headless Service).
 */
function rotatingLookup(attempt: number): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { all: true, family: options.family }, (error, addresses) => {
      if (error) {
        callback(error, '', 0);
        return;
      }
      const chosen = addresses[attempt % addresses.length];
      if (chosen === undefined) {
        callback(Object.assign(new Error(`no address for ${hostname}`), { code: 'ENOTFOUND' }), '', 0);
        return;
      }
      if (options.all) callback(null, [chosen]);
      else callback(null, chosen.address, chosen.family);
    });
  };
}

/**
 * Reads and drops the rest of a request body the upstream will not get, so the client sees the
 * answer and can send its next request on the same connection; a very large one is cut off.
 */
function drain(req: http.IncomingMessage, from?: http.ClientRequest): void {
  if (from) req.unpipe(from);
  if (req.complete) return;
  let dropped = 0;
  req.on('data', (chunk: Buffer) => {
    dropped += chunk.length;
    if (dropped > DRAIN_MAX_BYTES) req.socket.destroy();
  });
  req.resume();
}

function plain(res: http.ServerResponse, status: number, text: string): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', 'x-content-type-options': 'nosniff' });
  res.end(text);
}

/**
 * A reverse proxy that streams request and response bodies in both directions. Twilio webhooks
 * are read whole first (they are small) so that they can be sent again: on a refused or reset
 * connection, or a 502/503/504 from a restarting sms-gateway, they are retried with a bounded
 * backoff within Twilio's 15 s, each time on a new connection (another replica when there is one).
 */
export function createEdge(options: EdgeOptions): http.Server {
  const targets: Record<EdgeUpstream, URL> = {
    'api-gateway': new URL(options.apiGatewayUrl),
    'sms-gateway': new URL(options.smsGatewayUrl),
  };
  const isTrustedProxy = compileTrustedProxies(options.trustedProxies ?? []);
  const retryBudgetMs = options.webhookRetryBudgetMs ?? DEFAULT_RETRY_BUDGET_MS;
  const connectTimeoutMs = options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS;
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });

  const requestOptions = (
    target: URL,
    req: http.IncomingMessage,
    headers: http.OutgoingHttpHeaders,
    attempt: number,
  ): http.RequestOptions => ({
    protocol: target.protocol,
    hostname: target.hostname,
    port: target.port,
    method: req.method,
    path: req.url,
    headers,
    // A retry never reuses a pooled socket: it may be another dead one of the same process.
    ...(attempt === 0 ? { agent } : { agent: false, lookup: rotatingLookup(attempt) }),
  });

  /** Sends the upstream's answer on. */
  const relay = (res: http.ServerResponse, upstreamRes: http.IncomingMessage): void => {
    res.writeHead(upstreamRes.statusCode ?? 502, upstreamRes.statusMessage, responseHeaders(upstreamRes));
    upstreamRes.pipe(res);
    upstreamRes.on('error', () => res.destroy());
  };

  /** 413 from the edge itself; the body is read and dropped so the connection stays usable. */
  const tooLarge = (req: http.IncomingMessage, res: http.ServerResponse): void => {
    drain(req);
    if (res.headersSent) {
      res.destroy();
      return;
    }
    const body = JSON.stringify({
      statusCode: 413,
      error: 'Payload Too Large',
      message: `Request body is larger than ${maxBodyBytes} bytes`,
    });
    res.writeHead(413, {
      'content-type': 'application/json; charset=utf-8',
      'content-length': Buffer.byteLength(body),
      'x-content-type-options': 'nosniff',
    });
    res.end(body);
  };

  const streamed = (req: http.IncomingMessage, res: http.ServerResponse, name: EdgeUpstream): void => {
    const declared = Number(req.headers['content-length']);
    if (Number.isFinite(declared) && declared > maxBodyBytes) {
      tooLarge(req, res);
      return;
    }
    const target = targets[name];
    let answered = false;
    let received = 0;
    const upstreamReq = http.request(requestOptions(target, req, forwardedHeaders(req, isTrustedProxy), 0));
    upstreamReq.on('response', (upstreamRes) => {
      answered = true;
      // An early answer (a 413, a 401 before the body was all sent): stop sending and read the
      // rest of the client's body, so its connection stays usable for the next request.
      if (!req.complete) drain(req, upstreamReq);
      relay(res, upstreamRes);
    });
    upstreamReq.on('error', (error: NodeJS.ErrnoException) => {
      // Writing the rest of a body the upstream has already answered fails with EPIPE: not an error.
      if (answered) return;
      answered = true;
      if (!req.complete) drain(req, upstreamReq);
      plain(res, 502, `502: ${name} is not reachable (${error.code ?? error.message})`);
    });
    req.on('data', (chunk: Buffer) => {
      received += chunk.length;
      if (received <= maxBodyBytes || answered) return;
      // A chunked body past the limit: the upstream would refuse it too.
      answered = true;
      drain(req, upstreamReq);
      upstreamReq.destroy();
      tooLarge(req, res);
    });
    // A client that goes away mid-request takes its upstream request with it.
    res.on('close', () => {
      if (!res.writableFinished) upstreamReq.destroy();
    });
    req.pipe(upstreamReq);
  };

  const retried = (req: http.IncomingMessage, res: http.ServerResponse, name: EdgeUpstream): void => {
    const declared = Number(req.headers['content-length']);
    if (Number.isFinite(declared) && declared > maxBodyBytes) {
      tooLarge(req, res);
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= maxBodyBytes) chunks.push(chunk);
    });
    req.on('error', () => res.destroy());
    req.on('end', () => {
      if (size > maxBodyBytes) {
        tooLarge(req, res);
        return;
      }
      const body = Buffer.concat(chunks);
      const headers = forwardedHeaders(req, isTrustedProxy);
      delete headers['transfer-encoding'];
      headers['content-length'] = String(body.length);
      const startedAt = Date.now();
      let closed = false;
      res.on('close', () => {
        closed = true;
      });

      const attempt = (n: number): void => {
        if (closed) return;
        const upstreamReq = http.request(requestOptions(targets[name], req, headers, n));
        let settled = false;
        const retryOr502 = (reason: string): void => {
          if (settled) return;
          settled = true;
          const delay = Math.min(FIRST_BACKOFF_MS * 2 ** n, MAX_BACKOFF_MS);
          if (Date.now() - startedAt + delay < retryBudgetMs) setTimeout(() => attempt(n + 1), delay);
          else plain(res, 502, `502: ${name} is not reachable (${reason}, ${n + 1} attempts)`);
        };
        upstreamReq.on('socket', (socket) => {
          if (!socket.connecting) return;
          const timer = setTimeout(() => {
            upstreamReq.destroy(
              Object.assign(new Error('connect timeout'), { code: 'UPSTREAM_CONNECT_TIMEOUT' }),
            );
          }, connectTimeoutMs);
          socket.once('connect', () => clearTimeout(timer));
          socket.once('close', () => clearTimeout(timer));
        });
        upstreamReq.on('response', (upstreamRes) => {
          const status = upstreamRes.statusCode ?? 502;
          if (RETRYABLE_STATUSES.has(status)) {
            upstreamRes.resume();
            retryOr502(`status ${status}`);
            return;
          }
          settled = true;
          relay(res, upstreamRes);
        });
        upstreamReq.on('error', (error: NodeJS.ErrnoException) => {
          if (settled) {
            if (!res.writableFinished) res.destroy();
            return;
          }
          if (RETRYABLE_CODES.has(error.code ?? '')) retryOr502(error.code ?? error.message);
          else {
            settled = true;
            plain(res, 502, `502: ${name} is not reachable (${error.code ?? error.message})`);
          }
        });
        upstreamReq.end(body);
      };
      attempt(0);
    });
  };

  const server = http.createServer((req, res) => {
    const url = req.url ?? '/';
    if (isInternalPath(url)) {
      plain(res, 404, '404: not served on this origin');
      return;
    }
    const name = upstreamFor(url);
    if (name === 'sms-gateway' && isRetryableWebhook(req.method, url)) retried(req, res, name);
    else streamed(req, res, name);
  });
  server.on('close', () => agent.destroy());
  return server;
}
