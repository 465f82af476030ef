import {
  type EndpointAnswer,
  type EndpointDefinition,
  type EndpointRequest,
  endpointUrl,
} from '@sprout/contracts';
import { MutationCache, QueryCache, QueryClient, type QueryFunction } from '@tanstack/react-query';

// The request behaviour both web apps share: cookies on every call, JSON only when there is
// a body, and any non-OK answer raises `STATUS: body text` (or the status text when the body is empty).

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** A non-OK answer. `message` is `${status}: ${bodyText || statusText}` so screens can show it as it is. */
export class ApiError extends Error {
  readonly status: number;
  readonly bodyText: string;

  constructor(status: number, statusText: string, bodyText: string, message?: string) {
    super(message ?? `${status}: ${bodyText || statusText}`);
    this.name = 'ApiError';
    this.status = status;
    this.bodyText = bodyText;
  }
}

async function throwIfNotOk(res: Response, failureMessage?: string): Promise<void> {
  if (res.ok) return;
  const bodyText = await res.text();
  throw new ApiError(res.status, res.statusText, bodyText, failureMessage);
}

/** Sends a request with credentials; a JSON content type and body only when `body` is given. */
export async function apiRequest(method: HttpMethod, url: string, body?: unknown): Promise<Response> {
  const res = await fetch(url, {
    method,
    credentials: 'include',
    ...(body === undefined
      ? {}
      : { headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) }),
  });
  await throwIfNotOk(res);
  return res;
}

/** `apiRequest` and the answer read as JSON (undefined for an empty body). */
export async function apiJson<T>(method: HttpMethod, url: string, body?: unknown): Promise<T> {
  const res = await apiRequest(method, url, body);
  const text = await res.text();
  return (text ? JSON.parse(text) : undefined) as T;
}

/**
 * GET with credentials read as JSON. A non-OK answer raises an ApiError carrying the status; when
 * `failureMessage` is given it is the error's message (the screens' 'Failed to fetch ...' texts).
 */
export async function fetchJson<T>(url: string, failureMessage?: string): Promise<T> {
  return (await fetchJsonWithHeaders<T>(url, failureMessage)).body;
}

/** `fetchJson`, with the answer's headers (for totals an API sends beside a bare array). */
export async function fetchJsonWithHeaders<T>(
  url: string,
  failureMessage?: string,
): Promise<{ body: T; headers: Headers }> {
  const res = await fetch(url, { credentials: 'include' });
  await throwIfNotOk(res, failureMessage);
  return { body: (await res.json()) as T, headers: res.headers };
}

export interface CallOptions {
  /** The error's message instead of `STATUS: body` (the screens' 'Failed to fetch ...' texts). */
  failureMessage?: string;
}

/**
 * Calls an endpoint of the contract table with credentials: its method, its path with the
 * parameters filled in, its query string, and a JSON body with its content type only when the
 * request gives one (a POST without one goes out bodiless). A non-OK answer raises an ApiError
 * (`STATUS: body`, or `failureMessage`).
 */
export async function callEndpointWithHeaders<D extends EndpointDefinition>(
  definition: D,
  request: EndpointRequest<D>,
  options?: CallOptions,
): Promise<{ body: EndpointAnswer<D>; headers: Headers }> {
  const body = (request as { body?: unknown }).body;
  const res = await fetch(endpointUrl(definition, request), {
    method: definition.method,
    credentials: 'include',
    ...(body === undefined
      ? {}
      : { headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) }),
  });
  await throwIfNotOk(res, options?.failureMessage);
  const text = await res.text();
  return { body: (text ? JSON.parse(text) : undefined) as EndpointAnswer<D>, headers: res.headers };
}

/** `callEndpointWithHeaders`, the answer only. */
export async function callEndpoint<D extends EndpointDefinition>(
  definition: D,
  request: EndpointRequest<D>,
  options?: CallOptions,
): Promise<EndpointAnswer<D>> {
  return (await callEndpointWithHeaders(definition, request, options)).body;
}

export type QueryParamValue = string | number | boolean | null | undefined;

/** `path` with the given query parameters; null and undefined values are left out. */
export function withQuery(path: string, params: Record<string, QueryParamValue>): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value === undefined || value === null) continue;
    search.set(key, String(value));
  }
  const query = search.toString();
  return query ? `${path}?${query}` : path;
}

export type UnauthorizedBehavior = 'throw' | 'returnNull';

/** The default query function: the first element of the query key is the URL, read as JSON. */
export function getQueryFn<T>(options: { on401: UnauthorizedBehavior }): QueryFunction<T | null> {
  return async ({ queryKey }) => {
    const url = queryKey[0];
    if (typeof url !== 'string') throw new Error('The first element of the query key must be the URL');
    const res = await fetch(url, { credentials: 'include' });
    if (options.on401 === 'returnNull' && res.status === 401) return null;
    await throwIfNotOk(res);
    return (await res.json()) as T;
  };
}

export interface QueryClientOptions {
  /** Called with every failed query and mutation (for example to send a 401 to the login page). */
  onQueryError?: (error: Error) => void;
  onMutationError?: (error: Error) => void;
}

/** Data-fetching defaults (screens show what is true now and fail fast): no retries, never stale, no refetch on window focus. */
export function createQueryClient(options: QueryClientOptions = {}): QueryClient {
  return new QueryClient({
    queryCache: new QueryCache({ onError: (error) => options.onQueryError?.(error) }),
    mutationCache: new MutationCache({ onError: (error) => options.onMutationError?.(error) }),
    defaultOptions: {
      queries: {
        queryFn: getQueryFn({ on401: 'throw' }),
        retry: false,
        staleTime: Infinity,
        refetchOnWindowFocus: false,
        refetchInterval: false,
      },
      mutations: { retry: false },
    },
  });
}

/** True when the error is a 401 answer. */
export function isUnauthorized(error: unknown): boolean {
  return error instanceof ApiError
    ? error.status === 401
    : error instanceof Error && error.message.startsWith('401:');
}

/**
 * The server's own message out of an error, for toasts: the `message` field of a JSON error body
 * (`STATUS: {"message": ...}`), else the plain body text, else `fallback`.
 */
export function serverMessage(error: unknown, fallback: string): string {
  let body: string;
  if (error instanceof ApiError) body = error.bodyText;
  else if (error instanceof Error && /^\d{3}: /.test(error.message)) body = error.message.slice(5);
  else return fallback;
  if (!body.trim()) return fallback;
  try {
    const parsed: unknown = JSON.parse(body);
    if (parsed && typeof parsed === 'object' && 'message' in parsed) {
      const message = parsed.message;
      if (typeof message === 'string' && message.trim()) return message;
      if (Array.isArray(message) && message.length > 0) return message.map(String).join(', ');
    }
    return fallback;
  } catch {
    return body.length <= 200 && !/^\s*</.test(body) ? body : fallback;
  }
}
