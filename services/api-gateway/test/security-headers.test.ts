import { useClosable } from '@sprout/testing';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { securityHeaders } from '@sprout/platform';
import { cookieSecureOf, loadApiGatewayConfig } from '../src/config';
import { ADMIN_PASSWORD, ADMIN_USERNAME, startGateway } from './support/gateway';

const gw = useClosable(() => startGateway());

const login = (target: NestFastifyApplication, headers: Record<string, string> = {}) =>
  target.inject({
    method: 'POST',
    url: '/api/admin/login',
    headers: { 'x-forwarded-for': '198.51.100.40', ...headers },
    payload: { username: ADMIN_USERNAME, password: ADMIN_PASSWORD },
  });

describe('security headers', () => {
  const policy = securityHeaders({ contentSecurityPolicy: 'pages' });

  it.each([
    ['the public site', 'GET', '/', {}],
    ['the console', 'GET', '/admin', {}],
    ['a health probe', 'GET', '/health/live', {}],
    ['an API answer that needs a session', 'GET', '/api/admin/users', {}],
    ['a route that does not exist', 'GET', '/api/nothing-here', {}],
    ['a refused body', 'POST', '/api/admin/login', { 'content-type': 'application/json' }],
    ['the CSRF refusal', 'POST', '/api/beta-signup', { origin: 'https://evil.example' }],
  ])(
    '%s carries the whole policy: CSP, frame-ancestors none, nosniff, DENY',
    async (_label, method, url, headers) => {
      const res = await gw.app.inject({
        method: method as 'GET' | 'POST',
        url,
        headers,
        ...(method === 'POST' ? { payload: 'x' } : {}),
      });
      expect(res.statusCode).not.toBe(500);
      expect(res.headers).toMatchObject(policy);
      const csp = String(res.headers['content-security-policy']);
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).toContain("default-src 'self'");
      expect(csp).toContain("script-src 'self'");
      expect(csp).toContain("object-src 'none'");
      expect(csp).not.toContain('upgrade-insecure-requests');
    },
  );

  it('the CSRF refusal is a 403 with the policy', async () => {
    const res = await gw.app.inject({
      method: 'POST',
      url: '/api/beta-signup',
      headers: { origin: 'https://evil.example' },
      payload: { email: 'csrf@example.com', region: '97201' },
    });
    expect(res.statusCode).toBe(403);
    expect(res.headers['x-frame-options']).toBe('DENY');
    expect(res.headers['content-security-policy']).toBe(policy['content-security-policy']);
  });
});

describe('the session cookie Secure flag comes from COOKIE_SECURE, never from a header', () => {
  it('is off for a development run, whatever X-Forwarded-Proto says', async () => {
    const res = await login(gw.app, { 'x-forwarded-proto': 'https' });
    expect(res.statusCode).toBe(200);
    expect(String(res.headers['set-cookie'])).not.toContain('Secure');
    expect(res.headers['strict-transport-security']).toBeUndefined();
  });

  it('is on with COOKIE_SECURE=true even over plain http, with HSTS', async () => {
    const secure = await gw.startAnother({ cookieSecure: true });
    const res = await login(secure, { 'x-forwarded-proto': 'http' });
    expect(res.statusCode).toBe(200);
    expect(String(res.headers['set-cookie'])).toContain('Secure');
    expect(String(res.headers['strict-transport-security'])).toContain('max-age=');
  });

  it('defaults to on in production and reads true/false', () => {
    expect(loadApiGatewayConfig({ nodeEnv: 'production' }).cookieSecure).toBeUndefined();
    expect(cookieSecureOf({ nodeEnv: 'production', cookieSecure: undefined })).toBe(true);
    expect(cookieSecureOf({ nodeEnv: 'development', cookieSecure: undefined })).toBe(false);
    expect(cookieSecureOf({ nodeEnv: 'production', cookieSecure: false })).toBe(false);
  });
});

describe('X-Forwarded-For is believed only from TRUST_PROXY', () => {
  it('ignores a client-sent X-Forwarded-For when no proxy is trusted (the default)', async () => {
    const untrusting = await gw.startAnother({ trustProxy: [], loginMaxFailures: 2 });
    // Two failures from "two IPs" are the same socket address: the third try is refused.
    for (const ip of ['203.0.113.1', '203.0.113.2']) {
      const res = await untrusting.inject({
        method: 'POST',
        url: '/api/admin/login',
        headers: { 'x-forwarded-for': ip },
        payload: { username: `probe-${ip}`, password: 'wrong' },
      });
      expect(res.statusCode).toBe(401);
    }
    const third = await untrusting.inject({
      method: 'POST',
      url: '/api/admin/login',
      headers: { 'x-forwarded-for': '203.0.113.3' },
      payload: { username: 'probe-3', password: 'wrong' },
    });
    expect(third.statusCode).toBe(429);
  });
});
