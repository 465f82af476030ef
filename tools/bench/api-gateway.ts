import { randomBytes } from 'node:crypto';
import {
  type EndpointAnswer,
  type EndpointDefinition,
  type EndpointRequest,
  api,
  endpointUrl,
} from '@sprout/contracts';
import { createApp } from '../../services/api-gateway/src/app';

/** api-gateway under benchmark: its origin, a signed-in admin's session cookie, and how to stop it. */
export interface BenchGateway {
  baseUrl: string;
  cookie: string;
  /** One call of an endpoint as the console makes it (the session's cookie, a JSON body), timed. */
  call<D extends EndpointDefinition>(definition: D, request: EndpointRequest<D>): Promise<Answered<D>>;
  close(): Promise<void>;
}

export interface Answered<D extends EndpointDefinition> {
  ms: number;
  answer: EndpointAnswer<D>;
}

export interface BenchGatewaySettings {
  databaseUrl: string;
  redisUrl: string;
  bullmqPrefix: string;
}

/**
 * api-gateway as it is deployed (its exported createApp, every module and the web apps' security
 * headers), listening on a free loopback port, with an admin of its own signed in through the
 * login endpoint.
 */
export async function startApiGateway(settings: BenchGatewaySettings): Promise<BenchGateway> {
  const password = randomBytes(12).toString('base64url');
  const app = await createApp({
    ...settings,
    logLevel: 'warn',
    host: '127.0.0.1',
    adminUsername: 'bench-admin',
    adminPassword: password,
  });
  try {
    await app.listen({ port: 0, host: '127.0.0.1' });
    const address = app.getHttpAdapter().getInstance().server.address();
    if (address === null || typeof address === 'string') throw new Error('api-gateway did not listen');
    const baseUrl = `http://127.0.0.1:${address.port}`;
    const login = await fetch(`${baseUrl}${api.auth.login.path}`, {
      method: api.auth.login.method,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'bench-admin', password }),
    });
    const cookie = (login.headers.getSetCookie().find((c) => c.startsWith('sprout_session=')) ?? '').split(
      ';',
    )[0];
    if (login.status !== 200 || !cookie)
      throw new Error(`login failed: ${login.status} ${await login.text()}`);
    const call = async <D extends EndpointDefinition>(
      definition: D,
      request: EndpointRequest<D>,
    ): Promise<Answered<D>> => {
      const url = endpointUrl(definition, request);
      const body = (request as { body?: unknown }).body;
      const started = performance.now();
      const res = await fetch(`${baseUrl}${url}`, {
        method: definition.method,
        headers: { cookie, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      const text = await res.text();
      const ms = performance.now() - started;
      if (!res.ok) throw new Error(`${definition.method} ${url}: ${res.status} ${text}`);
      return { ms, answer: (text === '' ? undefined : JSON.parse(text)) as EndpointAnswer<D> };
    };
    return { baseUrl, cookie, call, close: () => app.close() };
  } catch (error) {
    await app.close();
    throw error;
  }
}
