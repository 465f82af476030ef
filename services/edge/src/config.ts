import os from 'node:os';
import path from 'node:path';
import { type EdgeOptions, compileTrustedProxies } from './edge';

/** Everything the edge reads from its environment, checked once at start. */
export interface EdgeConfig {
  port: number;
  /** EDGE_HOST, else HOST (127.0.0.1 keeps it to loopback, e.g. a container on the host's network). */
  host: string;
  metricsPort: number;
  edge: Required<
    Pick<
      EdgeOptions,
      | 'apiGatewayUrl'
      | 'smsGatewayUrl'
      | 'trustedProxies'
      | 'webhookRetryBudgetMs'
      | 'spoolDir'
      | 'spoolMaxFiles'
    >
  >;
}

/** Every problem of the environment at once, so one restart fixes them all. */
export class EdgeConfigError extends Error {
  constructor(readonly problems: readonly string[]) {
    super(`Invalid configuration: ${problems.join('; ')}`);
    this.name = 'EdgeConfigError';
  }
}

export function loadEdgeConfig(env: NodeJS.ProcessEnv = process.env): EdgeConfig {
  const problems: string[] = [];
  const set = (name: string): string | undefined => env[name]?.trim() || undefined;

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

  // Proxies in front of the edge (an ingress) whose X-Forwarded-* are kept; none by default.
  const trustedProxies = (env.EDGE_TRUSTED_PROXIES ?? '')
    .split(',')
    .map((e) => e.trim())
    .filter((e) => e.length > 0);
  try {
    compileTrustedProxies(trustedProxies);
  } catch (error) {
    problems.push(`EDGE_TRUSTED_PROXIES: ${error instanceof Error ? error.message : String(error)}`);
  }

  const config: EdgeConfig = {
    port: integer('PORT', 8080, 1, 65535),
    host: set('EDGE_HOST') ?? set('HOST') ?? '0.0.0.0',
    metricsPort: integer('EDGE_METRICS_PORT', 8081, 1, 65535),
    edge: {
      apiGatewayUrl: url('API_GATEWAY_URL', 'http://127.0.0.1:3000'),
      smsGatewayUrl: url('SMS_GATEWAY_URL', 'http://127.0.0.1:3001'),
      trustedProxies,
      // Twilio gives up on a webhook after 15 s.
      webhookRetryBudgetMs: integer('EDGE_WEBHOOK_RETRY_BUDGET_MS', 12_000, 0, 14_000),
      // Webhooks no sms-gateway took in time: kept here until one does. Mount a volume on it.
      spoolDir: path.resolve(set('EDGE_SPOOL_DIR') ?? path.join(os.tmpdir(), 'sprout-edge-spool')),
      spoolMaxFiles: integer('EDGE_SPOOL_MAX_FILES', 50_000, 1, 10_000_000),
    },
  };
  if (problems.length > 0) throw new EdgeConfigError(problems);
  return config;
}
