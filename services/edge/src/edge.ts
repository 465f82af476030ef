import { lookup as dnsLookup } from 'node:dns';
import http from 'node:http';
import { BlockList, isIP, type LookupFunction } from 'node:net';
import { securityHeaders } from '@sprout/platform/security-headers';
import { Counter, Gauge, Registry } from 'prom-client';
import { SpoolFullError, type SpooledWebhook, WebhookSpool } from './webhook-spool';

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
  /**
   * Where signed Twilio webhooks that no sms-gateway took within the retry budget are kept (answered
   * 200 with empty TwiML, replayed when a gateway answers). Unset: they get a 502, as before.
   */
  spoolDir?: string;
  /** Most webhooks the spool holds; past it a webhook gets a 503 (default 50,000). */
  spoolMaxFiles?: number;
  /** Where the edge says what it did with spooled webhooks (default: stderr). */
  log?: (line: string) => void;
}

/** The edge's server, with its metrics (spooled, replayed, dropped webhooks) and its spool. */
export type Edge = http.Server & { readonly metrics: Registry; readonly spool: WebhookSpool | null };

export type EdgeUpstream = 'api-gateway' | 'sms-gateway';

/** Every service's body limit (libs/platform bootstrap): a larger body is refused here, whole. */
const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;
/** Past this much of a refused body the client's connection is cut instead of read to its end. */
const DRAIN_MAX_BYTES = 64 * 1024 * 1024;
const DEFAULT_RETRY_BUDGET_MS = 12_000;
const DEFAULT_CONNECT_TIMEOUT_MS = 2_000;
const FIRST_BACKOFF_MS = 100;
const MAX_BACKOFF_MS = 1_000;
const DEFAULT_SPOOL_MAX_FILES = 50_000;
/** Replays wait this long after a failed one, doubling up to the most. */
const FIRST_REPLAY_BACKOFF_MS = 250;
const MAX_REPLAY_BACKOFF_MS = 10_000;
/** A replay sms-gateway has not answered in this long counts as failed (it is sent again later). */
const REPLAY_TIMEOUT_MS = 30_000;

/** Empty TwiML: the reply goes out later through the API, as sms-gateway's own answer does. */
const EMPTY_TWIML = '<?xml version="1.0" encoding="UTF-8"?><Response/>';
/** The policy every answer carries (libs/platform): the edge's own answers and, where missing, relayed ones. */
const SECURITY_HEADERS = securityHeaders();

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
 * The path as the most lenient server could read it, for matching only (requests go upstream as
 * sent): fragment and query cut, percent-decoding repeated until nothing changes (double
 * encoding), Unicode compatibility forms folded, lower case, backslashes as slashes, matrix
 * parameters (";...") dropped, "." and ".." segments resolved, empty segments (doubled or
 * trailing slashes) and trailing dots and spaces of each segment removed.
 */
export function canonicalPath(url: string): string {
  const cut = url.search(/[?#]/);
  let pathname = cut >= 0 ? url.slice(0, cut) : url;
  for (let round = 0; round < 8; round += 1) {
    let decoded: string;
    try {
      decoded = decodeURIComponent(pathname);
    } catch {
      // A malformed escape elsewhere in the path: decode the well-formed ones byte by byte.
      decoded = pathname.replace(/%([0-9a-f]{2})/gi, (_match, hex: string) =>
        String.fromCharCode(Number.parseInt(hex, 16)),
      );
    }
    if (decoded === pathname) break;
    pathname = decoded;
  }
  const segments: string[] = [];
  for (const raw of pathname.normalize('NFKC').toLowerCase().replace(/\\/g, '/').split('/')) {
    const segment = raw.split(';')[0] ?? '';
    if (segment === '..') segments.pop();
    else {
      const trimmed = segment === '.' ? '' : segment.replace(/[.\s\0]+$/, '');
      if (trimmed !== '') segments.push(trimmed);
    }
  }
  return `/${segments.join('/')}`;
}

/**
 * Paths the edge never routes, however they are spelled (see canonicalPath): metrics are scraped
 * on each service's own port, and the API docs are read on api-gateway's own port (or through a
 * port-forward), not from the public origin.
 */
export function isInternalPath(url: string): boolean {
  const [first, second] = canonicalPath(url).split('/').slice(1);
  if (first === 'metrics') return true;
  return first === 'api' && second !== undefined && (second === 'docs' || /^docs[-.]/.test(second));
}

/** A Twilio webhook the edge may send again: sms-gateway stores it once per MessageSid. */
function isRetryableWebhook(method: string | undefined, url: string): boolean {
  const pathname = url.split('?')[0] ?? '';
  return method === 'POST' && pathname.startsWith('/webhooks/twilio/');
}

/**
 * A webhook the edge may keep and replay: a signed POST to /webhooks/twilio/**, its path already
 * in canonical form (nothing encoded or dotted that could reach another route). Never an admin
 * or API request.
 */
function isSpoolableWebhook(req: http.IncomingMessage): boolean {
  const url = req.url ?? '';
  const pathname = url.split('?')[0] ?? '';
  return (
    isRetryableWebhook(req.method, url) &&
    canonicalPath(url) === pathname &&
    typeof req.headers['x-twilio-signature'] === 'string' &&
    req.headers['x-twilio-signature'] !== ''
  );
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

/** The upstream's answer headers, hop-by-hop removed, with any policy header it lacks. */
function responseHeaders(upstream: http.IncomingMessage): http.OutgoingHttpHeaders {
  const headers: http.OutgoingHttpHeaders = { ...SECURITY_HEADERS };
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

/** An answer of the edge itself, with the security headers. */
function answer(res: http.ServerResponse, status: number, contentType: string, body: string): void {
  if (res.destroyed) return; // the client left (a webhook kept after Twilio hung up)
  if (res.headersSent) {
    res.destroy();
    return;
  }
  res.writeHead(status, {
    ...SECURITY_HEADERS,
    'content-type': contentType,
    'content-length': Buffer.byteLength(body),
  });
  res.end(body);
}

function plain(res: http.ServerResponse, status: number, text: string): void {
  answer(res, status, 'text/plain; charset=utf-8', text);
}

function edgeMetrics(registry: Registry) {
  return {
    spooled: new Counter({
      name: 'sprout_edge_webhooks_spooled_total',
      help: 'Twilio webhooks no sms-gateway took within the retry budget, kept in the spool and answered 200',
      registers: [registry],
    }),
    replayed: new Counter({
      name: 'sprout_edge_webhooks_replayed_total',
      help: 'Spooled webhooks sms-gateway took (2xx) on replay',
      registers: [registry],
    }),
    dropped: new Counter({
      name: 'sprout_edge_webhooks_dropped_total',
      help: 'Webhooks the spool did not deliver: refused on replay (moved aside), spool full or unwritable, unreadable file',
      labelNames: ['reason'] as const,
      registers: [registry],
    }),
    pending: new Gauge({
      name: 'sprout_edge_webhook_spool_pending',
      help: 'Spooled webhooks waiting for a replay',
      registers: [registry],
    }),
  };
}

/**
 * Replays spooled webhooks to sms-gateway, oldest first, one at a time (a sender's texts keep
 * their order). A 2xx deletes the file; a refusal (4xx but 408 and 429, or a 500: the request
 * itself is at fault) moves it aside with the reason; anything else (refused connection, 502,
 * 503, 504, no answer) means no gateway is ready: the round stops and is tried again after a
 * backoff, from the oldest.
 */
class Replayer {
  private timer: NodeJS.Timeout | null = null;
  private running = false;
  private stopped = false;
  private backoffMs = FIRST_REPLAY_BACKOFF_MS;
  private inFlight: http.ClientRequest | null = null;

  constructor(
    private readonly spool: WebhookSpool,
    private readonly target: URL,
    private readonly metrics: ReturnType<typeof edgeMetrics>,
    private readonly log: (line: string) => void,
  ) {}

  /** Runs a round after `delayMs` unless one is due or running already. */
  schedule(delayMs = 0): void {
    if (this.stopped || this.timer !== null || this.running) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.round();
    }, delayMs);
  }

  stop(): void {
    this.stopped = true;
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    this.inFlight?.destroy();
  }

  private async round(): Promise<void> {
    this.running = true;
    let retryIn: number | null = null;
    try {
      const names = await this.spool.list();
      this.metrics.pending.set(names.length);
      for (const name of names) {
        if (this.stopped) return;
        let webhook: SpooledWebhook;
        try {
          webhook = await this.spool.read(name);
        } catch (error) {
          await this.spool.reject(name, `unreadable: ${String(error)}`);
          this.metrics.dropped.inc({ reason: 'unreadable' });
          this.log(`edge: spooled webhook ${name} is unreadable; moved to ${this.spool.rejectedDir}`);
          continue;
        }
        const outcome = await this.send(webhook);
        if (outcome.status !== null && outcome.status >= 200 && outcome.status < 300) {
          await this.spool.remove(name);
          this.metrics.replayed.inc();
        } else if (outcome.status !== null && isRefusal(outcome.status)) {
          await this.spool.reject(name, `sms-gateway answered ${outcome.status}: ${outcome.detail}`);
          this.metrics.dropped.inc({ reason: 'rejected' });
          this.log(
            `edge: sms-gateway refused spooled webhook ${webhook.method} ${webhook.url} (${name}) with ${outcome.status}: ${outcome.detail}; moved to ${this.spool.rejectedDir}`,
          );
        } else {
          retryIn = this.backoffMs;
          this.backoffMs = Math.min(this.backoffMs * 2, MAX_REPLAY_BACKOFF_MS);
          return;
        }
        this.metrics.pending.set(this.spool.pending);
      }
      this.backoffMs = FIRST_REPLAY_BACKOFF_MS;
    } catch (error) {
      this.log(`edge: replaying the webhook spool failed: ${String(error)}`);
      retryIn = MAX_REPLAY_BACKOFF_MS;
    } finally {
      this.metrics.pending.set(this.spool.pending);
      this.running = false;
      // Webhooks spooled during the round, or the round stopped early: another one.
      if (retryIn !== null) this.schedule(retryIn);
      else if (this.spool.pending > 0) this.schedule(0);
    }
  }

  /** One delivery attempt on a new connection: the status, or null when none came. */
  private send(webhook: SpooledWebhook): Promise<{ status: number | null; detail: string }> {
    return new Promise((resolve) => {
      const req = http.request({
        protocol: this.target.protocol,
        hostname: this.target.hostname,
        port: this.target.port,
        method: webhook.method,
        path: webhook.url,
        headers: webhook.headers,
        agent: false,
        timeout: REPLAY_TIMEOUT_MS,
      });
      this.inFlight = req;
      req.on('response', (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          if (size < 500) chunks.push(chunk);
          size += chunk.length;
        });
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? null,
            detail: Buffer.concat(chunks).toString('utf8').slice(0, 500),
          }),
        );
        res.on('error', () => resolve({ status: null, detail: 'answer cut off' }));
      });
      req.on('timeout', () => req.destroy(new Error(`no answer in ${REPLAY_TIMEOUT_MS} ms`)));
      req.on('error', (error: NodeJS.ErrnoException) =>
        resolve({ status: null, detail: error.code ?? error.message }),
      );
      req.on('close', () => {
        if (this.inFlight === req) this.inFlight = null;
      });
      req.end(webhook.body);
    });
  }
}

/** An answer that says the request itself is wrong: sending it again would not help. */
function isRefusal(status: number): boolean {
  if (status === 408 || status === 429) return false;
  return (status >= 300 && status < 500) || status === 500;
}

/**
 * A reverse proxy that streams request and response bodies in both directions. Twilio webhooks
 * are read whole first (they are small) so that they can be sent again: on a refused or reset
 * connection, or a 502/503/504 from a restarting sms-gateway, they are retried with a bounded
 * backoff within Twilio's 15 s, each time on a new connection (another replica when there is one).
 */
export function createEdge(options: EdgeOptions): Edge {
  const targets: Record<EdgeUpstream, URL> = {
    'api-gateway': new URL(options.apiGatewayUrl),
    'sms-gateway': new URL(options.smsGatewayUrl),
  };
  const isTrustedProxy = compileTrustedProxies(options.trustedProxies ?? []);
  const retryBudgetMs = options.webhookRetryBudgetMs ?? DEFAULT_RETRY_BUDGET_MS;
  const connectTimeoutMs = options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS;
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  const registry = new Registry();
  const metrics = edgeMetrics(registry);
  const spool =
    options.spoolDir === undefined
      ? null
      : new WebhookSpool(options.spoolDir, options.spoolMaxFiles ?? DEFAULT_SPOOL_MAX_FILES);
  const replayer = spool === null ? null : new Replayer(spool, targets['sms-gateway'], metrics, log);

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
    const body = JSON.stringify({
      statusCode: 413,
      error: 'Payload Too Large',
      message: `Request body is larger than ${maxBodyBytes} bytes`,
    });
    answer(res, 413, 'application/json; charset=utf-8', body);
  };

  /**
   * No sms-gateway took the webhook in time: a signed one is kept on disk and answered 200 with
   * empty TwiML (Twilio does not retry), then replayed; anything else gets the 502.
   */
  const keepOr502 = (
    req: http.IncomingMessage,
    res: http.ServerResponse,
    webhook: SpooledWebhook,
    why: string,
  ): void => {
    if (spool === null || replayer === null || !isSpoolableWebhook(req)) {
      plain(res, 502, `502: sms-gateway is not reachable (${why})`);
      return;
    }
    spool.put(webhook).then(
      (name) => {
        metrics.spooled.inc();
        metrics.pending.set(spool.pending);
        log(
          `edge: sms-gateway not reachable (${why}); webhook ${webhook.method} ${webhook.url} spooled as ${name}`,
        );
        answer(res, 200, 'text/xml; charset=utf-8', EMPTY_TWIML);
        replayer.schedule(FIRST_REPLAY_BACKOFF_MS);
      },
      (error: unknown) => {
        const full = error instanceof SpoolFullError;
        metrics.dropped.inc({ reason: full ? 'spool_full' : 'spool_write_failed' });
        log(`edge: could not spool webhook ${webhook.method} ${webhook.url}: ${String(error)}`);
        if (full) plain(res, 503, `503: sms-gateway is not reachable (${why}) and the webhook spool is full`);
        else plain(res, 502, `502: sms-gateway is not reachable (${why}) and the webhook could not be kept`);
      },
    );
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
      const webhook: SpooledWebhook = {
        method: req.method ?? 'POST',
        url: req.url ?? '/',
        headers,
        body,
        receivedAt: new Date(startedAt).toISOString(),
      };
      let closed = false;
      res.on('close', () => {
        closed = true;
      });

      const attempt = (n: number): void => {
        // Twilio stopped waiting: keep what it sent rather than drop it.
        if (closed) {
          keepOr502(req, res, webhook, `the client left after ${n} attempts`);
          return;
        }
        const upstreamReq = http.request(requestOptions(targets[name], req, headers, n));
        let settled = false;
        const retryOrGiveUp = (reason: string): void => {
          if (settled) return;
          settled = true;
          const delay = Math.min(FIRST_BACKOFF_MS * 2 ** n, MAX_BACKOFF_MS);
          if (Date.now() - startedAt + delay < retryBudgetMs) setTimeout(() => attempt(n + 1), delay);
          else keepOr502(req, res, webhook, `${reason}, ${n + 1} attempts`);
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
            retryOrGiveUp(`status ${status}`);
            return;
          }
          settled = true;
          relay(res, upstreamRes);
          // A gateway answers again: webhooks kept meanwhile need not wait for their backoff.
          if (status < 300 && spool !== null && spool.pending > 0) replayer?.schedule(0);
        });
        upstreamReq.on('error', (error: NodeJS.ErrnoException) => {
          if (settled) {
            if (!res.writableFinished) res.destroy();
            return;
          }
          if (RETRYABLE_CODES.has(error.code ?? '')) retryOrGiveUp(error.code ?? error.message);
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
  server.on('close', () => {
    agent.destroy();
    replayer?.stop();
  });
  // Webhooks a previous run kept go out as soon as a gateway answers.
  replayer?.schedule(0);
  return Object.assign(server, { metrics: registry, spool });
}

/**
 * The edge's own metrics (the spool's counters) and liveness, on a listener of their own: like
 * every service's /metrics, never on the public origin.
 */
export function createEdgeMetricsServer(edge: Edge): http.Server {
  return http.createServer((req, res) => {
    const pathname = (req.url ?? '/').split('?')[0];
    if (req.method === 'GET' && pathname === '/metrics') {
      edge.metrics.metrics().then(
        (text) => answer(res, 200, edge.metrics.contentType, text),
        (error: unknown) => plain(res, 500, `500: ${String(error)}`),
      );
    } else if (req.method === 'GET' && pathname === '/health/live') {
      answer(res, 200, 'application/json; charset=utf-8', '{"status":"ok"}');
    } else plain(res, 404, '404: not found');
  });
}
