import os from 'node:os';
import path from 'node:path';
import { createEdge, createEdgeMetricsServer } from './edge';

// Entry point of the edge as its own process (docker compose, Kubernetes); `npm start` runs it
// in-process. It loads no more than the proxy needs (not the services' platform), so it stays small.

const env = process.env;
const problems: string[] = [];
const set = (name: string): string | undefined => (env[name]?.trim() ? env[name]?.trim() : undefined);

const integer = (name: string, fallback: number, min: number, max: number): number => {
  const raw = set(name);
  if (raw === undefined) return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max) {
    problems.push(`${name} must be a whole number between ${min} and ${max} (got ${JSON.stringify(raw)})`);
    return fallback;
  }
  return Number(raw);
};

const url = (name: string, fallback: string): string => {
  const raw = set(name) ?? fallback;
  try {
    if (['http:', 'https:'].includes(new URL(raw).protocol)) return raw;
  } catch {
    // reported below
  }
  problems.push(`${name} must be a URL starting with http:// or https:// (got ${JSON.stringify(raw)})`);
  return fallback;
};

const list = (value: string | undefined): string[] =>
  (value ?? '')
    .split(',')
    .map((e) => e.trim())
    .filter((e) => e.length > 0);

const port = integer('PORT', 8080, 1, 65535);
// EDGE_HOST, else HOST (127.0.0.1 keeps it to loopback, e.g. a container on the host's network).
const host = set('EDGE_HOST') ?? set('HOST') ?? '0.0.0.0';
const metricsPort = integer('EDGE_METRICS_PORT', 8081, 1, 65535);
const options = {
  apiGatewayUrl: url('API_GATEWAY_URL', 'http://127.0.0.1:3000'),
  smsGatewayUrl: url('SMS_GATEWAY_URL', 'http://127.0.0.1:3001'),
  // Proxies in front of the edge (an ingress) whose X-Forwarded-* are kept; none by default.
  trustedProxies: list(env.EDGE_TRUSTED_PROXIES),
  webhookRetryBudgetMs: integer('EDGE_WEBHOOK_RETRY_BUDGET_MS', 12_000, 0, 14_000),
  // Webhooks no sms-gateway took in time: kept here until one does. Mount a volume on it.
  spoolDir: path.resolve(set('EDGE_SPOOL_DIR') ?? path.join(os.tmpdir(), 'sprout-edge-spool')),
  spoolMaxFiles: integer('EDGE_SPOOL_MAX_FILES', 50_000, 1, 10_000_000),
};
if (problems.length > 0) {
  process.stderr.write(`Invalid configuration: ${problems.join('; ')}\n`);
  process.exit(1);
}

let edge: ReturnType<typeof createEdge>;
try {
  edge = createEdge(options);
} catch (error) {
  // EDGE_TRUSTED_PROXIES with an entry that is not an address or CIDR.
  process.stderr.write(`Invalid configuration: EDGE_TRUSTED_PROXIES: ${String(error)}\n`);
  process.exit(1);
}
const metrics = createEdgeMetricsServer(edge);

// A spool folder that cannot be written stops the edge at once, not at the first outage.
(edge.spool?.opened() ?? Promise.resolve()).then(
  () => {
    edge.listen(port, host, () => {
      process.stdout.write(
        `edge listening on ${host}:${port}; metrics on ${host}:${metricsPort}; webhook spool ${options.spoolDir}\n`,
      );
    });
    metrics.listen(metricsPort, host);
  },
  (error: unknown) => {
    process.stderr.write(
      `Invalid configuration: EDGE_SPOOL_DIR ${options.spoolDir} cannot be used: ${String(error)}\n`,
    );
    process.exit(1);
  },
);

const shutdown = (): void => {
  metrics.close();
  edge.close(() => process.exit(0));
  edge.closeIdleConnections();
  setTimeout(() => process.exit(0), 10_000).unref();
};
process.on('SIGTERM', shutdown);
process.on('SIGINT', shutdown);
