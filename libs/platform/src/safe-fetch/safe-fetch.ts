import { lookup as dnsLookup } from 'node:dns/promises';
import http, { type IncomingHttpHeaders, type OutgoingHttpHeaders } from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { blockedReason, compileAllowance, type PrivateHostAllowance } from './address-policy';
import { compileHostRules } from './host-policy';
import {
  BlockedAddressError,
  ContentTypeNotAllowedError,
  DnsResolutionError,
  FetchAbortedError,
  FetchNetworkError,
  FetchTimeoutError,
  HostNotAllowedError,
  HttpStatusError,
  InvalidUrlError,
  ProtocolNotAllowedError,
  ResponseTooLargeError,
  SafeFetchError,
  TooManyRedirectsError,
} from './errors';

export interface SafeFetchOptions {
  /** The body may not exceed this many bytes; the download is aborted as soon as it does. */
  maxBytes: number;
  /** Budget for the whole fetch: DNS, every redirect hop and the body. */
  timeoutMs: number;
  /** Redirects followed at most (0: none); each hop is validated like the first URL. */
  maxRedirects: number;
  /** Media types accepted, e.g. `image/jpeg` or `image/*`; any type when absent. */
  allowedContentTypes?: readonly string[];
  /** Request headers. Authorization and Cookie are dropped when a redirect leaves the origin. */
  headers?: Record<string, string>;
  /**
   * Private addresses allowed anyway. Only for tests and the local sandbox, whose fakes listen on
   * 127.0.0.1: `true` allows every private address, a list allows those addresses and CIDRs.
   * Default false. Production configuration leaves it off.
   */
  allowPrivateHosts?: PrivateHostAllowance;
  /**
   * Hosts the first URL and every redirect may name (see HostRule: `api.twilio.com`,
   * `*.twiliocdn.com`, `host:port`); any public host when absent. Checked before DNS.
   */
  allowedHosts?: readonly string[];
  /**
   * `host:port` entries whose hop may connect to a private address (a sandbox's own endpoint),
   * without opening that address on any other port.
   */
  privateEndpoints?: readonly string[];
  /**
   * Answers the caller serves itself, without DNS or a connection (the stack's own sample images):
   * asked for the first URL and every redirect; its answer passes the same status, type and size
   * checks, and a redirect it gives is validated like any other.
   */
  local?: LocalResponder;
  /** Resolves a hostname to its addresses; the system resolver by default. */
  resolve?: (hostname: string) => Promise<string[]>;
  /** Cancels the fetch (e.g. on shutdown). */
  signal?: AbortSignal;
}

export interface SafeFetchResponse {
  /** The URL finally fetched, after redirects. */
  url: string;
  status: number;
  /** Media type without parameters, lower case; null when the server sent none. */
  contentType: string | null;
  headers: IncomingHttpHeaders;
  body: Buffer;
  /** The validated IP the last hop connected to; null when `local` answered it. */
  address: string | null;
  redirects: number;
}

/** What a `local` responder answers for a URL, as an HTTP server would. */
export interface LocalResponse {
  status: number;
  headers: { 'content-type'?: string; location?: string };
  body: Buffer;
}

/** Answers a URL itself, or null to leave it to the network. */
export type LocalResponder = (url: URL) => LocalResponse | null;

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
const CREDENTIAL_HEADERS = new Set(['authorization', 'cookie', 'proxy-authorization']);

const systemResolve = async (hostname: string): Promise<string[]> =>
  (await dnsLookup(hostname, { all: true, verbatim: true })).map((a) => a.address);

const mediaType = (header: string | undefined): string | null => {
  const type = header?.split(';')[0]?.trim().toLowerCase();
  return type ? type : null;
};

const contentTypeAllowed = (type: string | null, allowed: readonly string[]): boolean => {
  if (type === null) return false;
  return allowed.some((entry) => {
    const wanted = entry.trim().toLowerCase();
    return wanted.endsWith('/*') ? type.startsWith(wanted.slice(0, -1)) : type === wanted;
  });
};

const parseTarget = (input: string, base?: URL): URL => {
  let url: URL;
  try {
    url = base ? new URL(input, base) : new URL(input);
  } catch {
    throw new InvalidUrlError(input, 'not a valid absolute URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ProtocolNotAllowedError(url.href, url.protocol.replace(/:$/, ''));
  }
  if (url.username !== '' || url.password !== '') {
    throw new InvalidUrlError(
      url.href,
      'credentials in the URL are not allowed (pass an Authorization header)',
    );
  }
  return url;
};

/** The URL's host without IPv6 brackets. */
const bareHost = (url: URL): string => url.hostname.replace(/^\[(.*)\]$/, '$1');

/** Pins a connection to an address validated beforehand, so a second DNS answer cannot redirect it. */
const pinnedLookup =
  (address: string): LookupFunction =>
  (_hostname, options, callback) => {
    const family = isIP(address);
    if (options.all) callback(null, [{ address, family }]);
    else callback(null, address, family);
  };

interface Deadline {
  remaining(): number;
  timeoutMs: number;
}

const withDeadline = async <T>(promise: Promise<T>, deadline: Deadline, url: string): Promise<T> => {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new FetchTimeoutError(url, deadline.timeoutMs)),
      Math.max(0, deadline.remaining()),
    );
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
};

const validatedAddress = async (
  url: URL,
  isAllowedPrivate: (address: string, url: URL) => boolean,
  resolve: (hostname: string) => Promise<string[]>,
  deadline: Deadline,
): Promise<string> => {
  const host = bareHost(url);
  let addresses: string[];
  if (isIP(host) !== 0) addresses = [host];
  else {
    try {
      addresses = await withDeadline(resolve(host), deadline, url.href);
    } catch (error) {
      if (error instanceof SafeFetchError) throw error;
      throw new DnsResolutionError(url.href, host, error);
    }
    if (addresses.length === 0) throw new DnsResolutionError(url.href, host, new Error('no addresses'));
  }
  // Every answer must be public: a name that also points inside is refused outright.
  for (const address of addresses) {
    const reason = blockedReason(address);
    if (reason !== null && !isAllowedPrivate(address, url))
      throw new BlockedAddressError(url.href, host, address, reason);
  }
  return addresses[0] as string;
};

type HopOutcome =
  | { kind: 'redirect'; location: string }
  | { kind: 'done'; response: Omit<SafeFetchResponse, 'url' | 'redirects'> };

/** What an answer's head decides, before its body is read: follow, refuse or read on. */
type HeadVerdict =
  | { kind: 'redirect'; location: string }
  | { kind: 'read' }
  | { kind: 'refuse'; error: SafeFetchError; drain: boolean };

const judgeHead = (
  url: URL,
  status: number,
  location: string | undefined,
  contentType: string | null,
  declaredLength: number,
  options: SafeFetchOptions,
): HeadVerdict => {
  if (REDIRECT_STATUSES.has(status) && location) return { kind: 'redirect', location };
  if (status < 200 || status >= 300)
    return { kind: 'refuse', error: new HttpStatusError(url.href, status), drain: true };
  if (options.allowedContentTypes && !contentTypeAllowed(contentType, options.allowedContentTypes)) {
    const error = new ContentTypeNotAllowedError(url.href, contentType, options.allowedContentTypes);
    return { kind: 'refuse', error, drain: false };
  }
  if (Number.isFinite(declaredLength) && declaredLength > options.maxBytes)
    return { kind: 'refuse', error: new ResponseTooLargeError(url.href, options.maxBytes), drain: false };
  return { kind: 'read' };
};

const answerLocally = (url: URL, local: LocalResponse, options: SafeFetchOptions): HopOutcome => {
  const contentType = mediaType(local.headers['content-type']);
  const verdict = judgeHead(
    url,
    local.status,
    local.headers.location,
    contentType,
    local.body.length,
    options,
  );
  if (verdict.kind === 'redirect') return verdict;
  if (verdict.kind === 'refuse') throw verdict.error;
  const headers: IncomingHttpHeaders = {
    'content-length': String(local.body.length),
    ...(local.headers['content-type'] === undefined ? {} : { 'content-type': local.headers['content-type'] }),
  };
  return {
    kind: 'done',
    response: { status: local.status, contentType, headers, body: local.body, address: null },
  };
};

const requestOnce = (
  url: URL,
  address: string,
  headers: OutgoingHttpHeaders,
  options: SafeFetchOptions,
  deadline: Deadline,
): Promise<HopOutcome> =>
  new Promise<HopOutcome>((resolve, reject) => {
    const transport = url.protocol === 'https:' ? https : http;
    const req = transport.request({
      protocol: url.protocol,
      host: bareHost(url),
      port: url.port === '' ? undefined : Number(url.port),
      path: `${url.pathname}${url.search}`,
      method: 'GET',
      headers: { ...headers, 'accept-encoding': 'identity' },
      lookup: pinnedLookup(address),
      agent: false,
    });
    const fail = (error: SafeFetchError): void => {
      reject(error);
      req.destroy(error);
    };
    const timer = setTimeout(
      () => fail(new FetchTimeoutError(url.href, deadline.timeoutMs)),
      Math.max(0, deadline.remaining()),
    );
    const onAbort = (): void => fail(new FetchAbortedError(url.href));
    options.signal?.addEventListener('abort', onAbort, { once: true });
    const cleanup = (): void => {
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
    };

    req.on('error', (error) => {
      cleanup();
      reject(error instanceof SafeFetchError ? error : new FetchNetworkError(url.href, error));
    });
    req.on('close', cleanup);

    req.on('response', (res) => {
      res.on('error', (error) => {
        cleanup();
        reject(error instanceof SafeFetchError ? error : new FetchNetworkError(url.href, error));
      });
      const status = res.statusCode ?? 0;
      const contentType = mediaType(res.headers['content-type']);
      const verdict = judgeHead(
        url,
        status,
        res.headers.location,
        contentType,
        Number(res.headers['content-length']),
        options,
      );
      if (verdict.kind === 'redirect') {
        res.resume();
        cleanup();
        resolve(verdict);
        return;
      }
      if (verdict.kind === 'refuse') {
        if (verdict.drain) {
          res.resume();
          cleanup();
          reject(verdict.error);
        } else fail(verdict.error);
        return;
      }
      const chunks: Buffer[] = [];
      let received = 0;
      res.on('data', (chunk: Buffer) => {
        received += chunk.length;
        if (received > options.maxBytes) {
          fail(new ResponseTooLargeError(url.href, options.maxBytes));
          return;
        }
        chunks.push(chunk);
      });
      res.on('end', () => {
        cleanup();
        if (!res.complete) {
          reject(
            new FetchNetworkError(url.href, new Error('connection closed before the body was complete')),
          );
          return;
        }
        resolve({
          kind: 'done',
          response: { status, contentType, headers: res.headers, body: Buffer.concat(chunks), address },
        });
      });
    });
    req.end();
  });

const validateOptions = (options: SafeFetchOptions): void => {
  const positive = (name: string, value: number): void => {
    if (!Number.isFinite(value) || value <= 0)
      throw new RangeError(`safeFetch: ${name} must be a positive number`);
  };
  positive('maxBytes', options.maxBytes);
  positive('timeoutMs', options.timeoutMs);
  if (!Number.isInteger(options.maxRedirects) || options.maxRedirects < 0) {
    throw new RangeError('safeFetch: maxRedirects must be a whole number >= 0');
  }
};

const sameOrigin = (a: URL, b: URL): boolean => a.origin === b.origin;

/**
 * GETs a URL supplied by someone else without letting it reach internal networks (SSRF):
 * http and https only; DNS resolved here and every answer checked against private, loopback,
 * link-local, CGNAT, multicast, unique-local and metadata ranges, for the first URL and every
 * redirect; the connection pinned to the checked address (no DNS rebinding); the body size capped
 * while streaming; the content type checked against an allow-list; one time budget for it all.
 * `allowedHosts`/`privateEndpoints`/`local` come from a policy (fetch-policy.ts: MMS media or
 * admin URLs). Failures are SafeFetchError subclasses with a `code`.
 */
export const safeFetch = async (
  input: string | URL,
  options: SafeFetchOptions,
): Promise<SafeFetchResponse> => {
  validateOptions(options);
  const startedAt = Date.now();
  const deadline: Deadline = {
    timeoutMs: options.timeoutMs,
    remaining: () => options.timeoutMs - (Date.now() - startedAt),
  };
  const privateAddress = compileAllowance(options.allowPrivateHosts);
  const privateEndpoint = compileHostRules(options.privateEndpoints ?? []);
  const isAllowedPrivate = (address: string, target: URL): boolean =>
    privateAddress(address) || privateEndpoint(target);
  const hostAllowed = options.allowedHosts === undefined ? null : compileHostRules(options.allowedHosts);
  const resolve = options.resolve ?? systemResolve;
  let url = parseTarget(typeof input === 'string' ? input : input.href);
  let headers: OutgoingHttpHeaders = { ...options.headers };

  for (let redirects = 0; ; redirects += 1) {
    if (options.signal?.aborted) throw new FetchAbortedError(url.href);
    if (hostAllowed !== null && !hostAllowed(url)) throw new HostNotAllowedError(url.href, url.host);
    const local = options.local?.(url) ?? null;
    let outcome: HopOutcome;
    if (local !== null) outcome = answerLocally(url, local, options);
    else {
      const address = await validatedAddress(url, isAllowedPrivate, resolve, deadline);
      if (deadline.remaining() <= 0) throw new FetchTimeoutError(url.href, options.timeoutMs);
      outcome = await requestOnce(url, address, headers, options, deadline);
    }
    if (outcome.kind === 'done') return { ...outcome.response, url: url.href, redirects };
    if (redirects >= options.maxRedirects) throw new TooManyRedirectsError(url.href, options.maxRedirects);
    const next = parseTarget(outcome.location, url);
    if (!sameOrigin(url, next)) {
      headers = Object.fromEntries(
        Object.entries(headers).filter(([name]) => !CREDENTIAL_HEADERS.has(name.toLowerCase())),
      );
    }
    url = next;
  }
};
