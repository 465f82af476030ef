import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { QueryFunctionContext } from '@tanstack/react-query';
import {
  ApiError,
  apiJson,
  apiRequest,
  createQueryClient,
  fetchJson,
  getQueryFn,
  isUnauthorized,
  serverMessage,
  withQuery,
} from '../src';

interface Seen {
  method: string;
  url: string;
  contentType: string | undefined;
  cookie: string | undefined;
  body: string;
}

let server: Server;
let base: string;
const seen: Seen[] = [];

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => resolve(body));
  });
}

beforeAll(async () => {
  server = createServer((req, res) => {
    void readBody(req).then((body) => {
      seen.push({
        method: req.method ?? '',
        url: req.url ?? '',
        contentType: req.headers['content-type'],
        cookie: req.headers.cookie,
        body,
      });
      const path = (req.url ?? '').split('?')[0] ?? '';
      switch (path) {
        case '/ok':
          res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify({ hello: 'world' }));
          return;
        case '/empty':
          res.writeHead(204).end();
          return;
        case '/bad-json':
          res
            .writeHead(400, { 'Content-Type': 'application/json' })
            .end(JSON.stringify({ message: 'Email is invalid' }));
          return;
        case '/bad-text':
          res.writeHead(409).end('Already there');
          return;
        case '/unauthorized':
          res
            .writeHead(401, { 'Content-Type': 'application/json' })
            .end(JSON.stringify({ message: 'Not signed in' }));
          return;
        default:
          res.writeHead(500, 'Internal Server Error').end();
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

beforeEach(() => {
  seen.length = 0;
});

function queryContext(queryKey: readonly unknown[]): QueryFunctionContext {
  return {
    queryKey,
    signal: new AbortController().signal,
    meta: undefined,
  } as unknown as QueryFunctionContext;
}

describe('apiRequest', () => {
  it('sends JSON with a content type only when a body is given', async () => {
    await apiRequest('POST', `${base}/ok`, { email: 'a@b.co', region: '94117' });
    await apiRequest('POST', `${base}/ok`);
    expect(seen[0]).toMatchObject({
      method: 'POST',
      contentType: 'application/json',
      body: JSON.stringify({ email: 'a@b.co', region: '94117' }),
    });
    expect(seen[1]).toMatchObject({ method: 'POST', contentType: undefined, body: '' });
  });

  it('raises `STATUS: body` for a non-OK answer', async () => {
    await expect(apiRequest('POST', `${base}/bad-json`, {})).rejects.toThrow(
      '400: {"message":"Email is invalid"}',
    );
    await expect(apiRequest('GET', `${base}/bad-text`)).rejects.toThrow('409: Already there');
  });

  it('uses the status text when the body is empty', async () => {
    const error: unknown = await apiRequest('GET', `${base}/missing`).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).message).toBe('500: Internal Server Error');
    expect((error as ApiError).status).toBe(500);
  });

  it('reads JSON answers and tolerates empty ones', async () => {
    await expect(apiJson('GET', `${base}/ok`)).resolves.toEqual({ hello: 'world' });
    await expect(apiJson('DELETE', `${base}/empty`)).resolves.toBeUndefined();
  });
});

describe('getQueryFn', () => {
  it('fetches the first element of the query key as the URL', async () => {
    const fn = getQueryFn<{ hello: string }>({ on401: 'throw' });
    await expect(fn(queryContext([`${base}/ok`, { ignored: true }]))).resolves.toEqual({ hello: 'world' });
    expect(seen[0]).toMatchObject({ method: 'GET', url: '/ok', contentType: undefined });
  });

  it('returns null on 401 when asked to', async () => {
    const fn = getQueryFn({ on401: 'returnNull' });
    await expect(fn(queryContext([`${base}/unauthorized`]))).resolves.toBeNull();
  });

  it('throws on 401 by default behaviour', async () => {
    const fn = getQueryFn({ on401: 'throw' });
    const error: unknown = await Promise.resolve(fn(queryContext([`${base}/unauthorized`]))).catch(
      (e: unknown) => e,
    );
    expect((error as Error).message).toBe('401: {"message":"Not signed in"}');
    expect(isUnauthorized(error)).toBe(true);
  });
});

describe('fetchJson', () => {
  it('uses the given failure message and keeps the status', async () => {
    const error: unknown = await fetchJson(`${base}/unauthorized`, 'Failed to fetch dashboard metrics').catch(
      (e: unknown) => e,
    );
    expect((error as Error).message).toBe('Failed to fetch dashboard metrics');
    expect(isUnauthorized(error)).toBe(true);
  });
});

describe('createQueryClient', () => {
  it('has the documented defaults: no retries, never stale, no refetch on focus', async () => {
    const client = createQueryClient();
    const { queries, mutations } = client.getDefaultOptions();
    expect(queries).toMatchObject({ retry: false, staleTime: Infinity, refetchOnWindowFocus: false });
    expect(mutations).toMatchObject({ retry: false });
    await expect(client.fetchQuery({ queryKey: [`${base}/ok`] })).resolves.toEqual({ hello: 'world' });
    await expect(client.fetchQuery({ queryKey: [`${base}/missing`] })).rejects.toThrow(
      '500: Internal Server Error',
    );
    expect(seen.filter((s) => s.url === '/missing')).toHaveLength(1);
  });

  it('reports failed queries to onQueryError', async () => {
    const errors: Error[] = [];
    const client = createQueryClient({ onQueryError: (e) => errors.push(e) });
    await client.fetchQuery({ queryKey: [`${base}/unauthorized`] }).catch(() => undefined);
    expect(errors.map((e) => isUnauthorized(e))).toEqual([true]);
  });
});

describe('serverMessage', () => {
  it('takes the message out of a JSON error body', async () => {
    const error: unknown = await apiRequest('POST', `${base}/bad-json`, {}).catch((e: unknown) => e);
    expect(serverMessage(error, 'fallback')).toBe('Email is invalid');
  });

  it('uses a short plain body, else the fallback', async () => {
    const plain: unknown = await apiRequest('GET', `${base}/bad-text`).catch((e: unknown) => e);
    expect(serverMessage(plain, 'fallback')).toBe('Already there');
    const empty: unknown = await apiRequest('GET', `${base}/missing`).catch((e: unknown) => e);
    expect(serverMessage(empty, 'fallback')).toBe('fallback');
    expect(serverMessage(new TypeError('Failed to fetch'), 'fallback')).toBe('fallback');
    expect(serverMessage(new Error('400: {"message":"Bad zip"}'), 'fallback')).toBe('Bad zip');
  });
});

describe('withQuery', () => {
  it('appends defined parameters only', () => {
    expect(withQuery('/api/x', { showTestData: true, search: undefined, page: 2 })).toBe(
      '/api/x?showTestData=true&page=2',
    );
    expect(withQuery('/api/x', { search: null })).toBe('/api/x');
  });
});
