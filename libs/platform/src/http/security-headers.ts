// The one security-header policy of every answer Sprout gives: each service's HTTP server
// (createServiceApp) and the edge's own answers use the set this yields.

/**
 * The Content-Security-Policy of the console and the public site (Vite builds: scripts and styles
 * from /assets; Radix and the toasts add <style> elements, hence 'unsafe-inline' for styles only;
 * MMS thumbnails come from anywhere over http(s)). No upgrade-insecure-requests: npm start and
 * compose serve plain http on localhost.
 */
export const PAGES_CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "base-uri 'self'",
  "connect-src 'self'",
  "font-src 'self' data:",
  "form-action 'self'",
  "frame-ancestors 'none'",
  "img-src 'self' data: blob: https: http:",
  "object-src 'none'",
  "script-src 'self'",
  "script-src-attr 'none'",
  "style-src 'self' 'unsafe-inline'",
].join(';');

/** Answers that are never pages (JSON, TwiML, metrics, plain-text errors): nothing loads or frames them. */
export const NO_CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join(';');

export interface SecurityHeaderOptions {
  /** 'pages' where HTML is served (api-gateway); default 'none'. */
  contentSecurityPolicy?: 'pages' | 'none';
  /** Strict-Transport-Security, only where the site is served over https (COOKIE_SECURE). */
  hsts?: boolean;
}

const HSTS = `max-age=${180 * 24 * 60 * 60}; includeSubDomains`;

/** The security headers of an answer, lower-case names. */
export const securityHeaders = (options: SecurityHeaderOptions = {}): Readonly<Record<string, string>> =>
  Object.freeze({
    'content-security-policy':
      options.contentSecurityPolicy === 'pages' ? PAGES_CONTENT_SECURITY_POLICY : NO_CONTENT_SECURITY_POLICY,
    'cross-origin-opener-policy': 'same-origin',
    'cross-origin-resource-policy': 'same-origin',
    'origin-agent-cluster': '?1',
    'referrer-policy': 'strict-origin-when-cross-origin',
    'x-content-type-options': 'nosniff',
    'x-dns-prefetch-control': 'off',
    'x-download-options': 'noopen',
    'x-frame-options': 'DENY',
    'x-permitted-cross-domain-policies': 'none',
    // The old XSS auditors did more harm than good; modern advice is to switch them off.
    'x-xss-protection': '0',
    ...(options.hsts === true ? { 'strict-transport-security': HSTS } : {}),
  });

/** Sets each policy header the answer does not set itself (a route may narrow its own CSP). */
export const applySecurityHeaders = (
  response: { hasHeader(name: string): boolean; setHeader(name: string, value: string): unknown },
  headers: Readonly<Record<string, string>>,
): void => {
  for (const [name, value] of Object.entries(headers)) {
    if (!response.hasHeader(name)) response.setHeader(name, value);
  }
};
