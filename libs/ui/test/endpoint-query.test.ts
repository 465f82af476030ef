import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { api, endpointKey, type ModelResponse, type UserDetail } from '@sprout/contracts';
import { ApiError, createQueryClient, endpointMutation, endpointQuery, invalidateEndpoint } from '../src';

// The helpers against a real HTTP server, with entries of the contract table: their relative
// paths are sent to it, and it answers whatever the test needs.

const conversations = api.messages.list; // GET with a query
const note = api.users.detail; // GET with path parameters
const rename = api.models.update; // PUT with path parameters and a body
const broken = api.auth.logout; // POST without either; the server refuses it

let server: Server;
let base = '';
const seen: { method: string; url: string; body: string; credentials?: RequestCredentials }[] = [];
const realFetch = globalThis.fetch;

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      seen.push({ method: req.method ?? '', url: req.url ?? '', body });
      const path = (req.url ?? '').split('?')[0];
      if (path === '/api/admin/logout') return res.writeHead(409).end('Already there');
      if (path === '/api/admin/conversations')
        return res.writeHead(200).end(JSON.stringify({ conversations: [] }));
      if (req.method === 'PUT') return res.writeHead(200).end(JSON.stringify({ renamed: true }));
      return res.writeHead(200).end(JSON.stringify({ id: path?.split('/').pop(), text: 'hi' }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  globalThis.fetch = (input, init) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const credentials = init?.credentials;
    const answerPromise = realFetch(url.startsWith('/') ? base + url : url, init);
    return answerPromise.then((res) => {
      const last = seen.at(-1);
      if (last) last.credentials = credentials;
      return res;
    });
  };
});

afterAll(async () => {
  globalThis.fetch = realFetch;
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

beforeEach(() => {
  seen.length = 0;
});

describe('endpointQuery', () => {
  it('keys the query as endpointKey does: the path, then the query when there is one', () => {
    expect(endpointQuery(conversations, {}).queryKey).toEqual(['/api/admin/conversations']);
    expect(endpointQuery(conversations, { query: { search: 'x', showTestData: true } }).queryKey).toEqual([
      '/api/admin/conversations',
      { search: 'x', showTestData: true },
    ]);
    expect(endpointQuery(note, { params: { id: 'a b' } }).queryKey).toEqual(['/api/admin/users/a%20b']);
    expect(endpointQuery(note, { params: { id: 'n1' } }).queryKey).toEqual(
      endpointKey(note, { params: { id: 'n1' } }),
    );
  });

  it('calls the endpoint with credentials and answers its typed body', async () => {
    const client = createQueryClient();
    const answer: UserDetail = await client.fetchQuery(endpointQuery(note, { params: { id: 'n1' } }));
    expect(answer).toEqual({ id: 'n1', text: 'hi' });
    expect(seen).toEqual([{ method: 'GET', url: '/api/admin/users/n1', body: '', credentials: 'include' }]);
    // The cache is typed from the entry as well.
    const cached: UserDetail | undefined = client.getQueryData(
      endpointQuery(note, { params: { id: 'n1' } }).queryKey,
    );
    expect(cached).toEqual({ id: 'n1', text: 'hi' });
  });

  it('raises `STATUS: body`, or the failure message given', async () => {
    const client = createQueryClient();
    await expect(client.fetchQuery(endpointQuery(broken, {}))).rejects.toThrow('409: Already there');
    await expect(
      client.fetchQuery({
        ...endpointQuery(broken, {}, { failureMessage: 'Failed to fetch x' }),
        queryKey: ['x'],
      }),
    ).rejects.toThrow('Failed to fetch x');
  });

  it('types the request from the entry', () => {
    // @ts-expect-error the note's id is required
    expect(() => endpointQuery(note, {})).toThrow('path parameter "id" is missing');
    // @ts-expect-error an unknown query parameter
    endpointQuery(conversations, { query: { unknown: 1 } });
  });
});

describe('endpointMutation', () => {
  it('sends the typed params and body and answers the typed body', async () => {
    const client = createQueryClient();
    const options = endpointMutation(rename);
    const answer: ModelResponse = await client
      .getMutationCache()
      .build(client, options)
      .execute({ params: { id: 'n1' }, body: { displayName: 'new' } });
    expect(answer).toEqual({ renamed: true });
    expect(seen).toEqual([
      { method: 'PUT', url: '/api/admin/models/n1', body: '{"displayName":"new"}', credentials: 'include' },
    ]);
    const mutate = (variables: Parameters<NonNullable<typeof options.mutationFn>>[0]) => variables;
    // @ts-expect-error the body is required
    mutate({ params: { id: 'n1' } });
  });

  it('keeps an error answer an ApiError carrying the failure message, and names a lost call by it', async () => {
    const client = createQueryClient();
    const failing = endpointMutation(broken, { failureMessage: 'Failed to break' });
    const error: unknown = await client
      .getMutationCache()
      .build(client, failing)
      .execute({})
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).message).toBe('Failed to break');
    expect((error as ApiError).bodyText).toBe('Already there');

    const saved = globalThis.fetch;
    globalThis.fetch = () => Promise.reject(new TypeError('fetch failed'));
    try {
      const lost: unknown = await client
        .getMutationCache()
        .build(client, failing)
        .execute({})
        .catch((e: unknown) => e);
      expect(lost).toBeInstanceOf(Error);
      expect(lost).not.toBeInstanceOf(ApiError);
      expect((lost as Error).message).toBe('Failed to break');
    } finally {
      globalThis.fetch = saved;
    }
    const plain = await client
      .getMutationCache()
      .build(client, endpointMutation(broken))
      .execute({})
      .catch((e: unknown) => e);
    expect((plain as Error).message).toBe('409: Already there');
  });
});

describe('invalidateEndpoint', () => {
  it("marks every query of the endpoint's path stale, whatever its query, and no other", async () => {
    const client = createQueryClient();
    await client.fetchQuery(endpointQuery(conversations, {}));
    await client.fetchQuery(endpointQuery(conversations, { query: { search: 'x' } }));
    await client.fetchQuery(endpointQuery(note, { params: { id: 'n1' } }));
    await client.fetchQuery(endpointQuery(note, { params: { id: 'n2' } }));
    const stale = () =>
      client
        .getQueryCache()
        .getAll()
        .filter((q) => q.isStale())
        .map((q) => q.queryKey);

    await invalidateEndpoint(client, conversations);
    expect(stale()).toEqual([['/api/admin/conversations'], ['/api/admin/conversations', { search: 'x' }]]);

    await invalidateEndpoint(client, note, { id: 'n2' });
    expect(stale()).toContainEqual(['/api/admin/users/n2']);
    expect(stale()).not.toContainEqual(['/api/admin/users/n1']);
    // @ts-expect-error the note's params are required
    expect(() => invalidateEndpoint(client, note)).toThrow('path parameter "id" is missing');
  });
});
