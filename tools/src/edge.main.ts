import { createEdge } from './edge';

// Entry point of the edge as its own process (docker compose, Kubernetes); `npm start` runs it in-process.
const port = Number(process.env.PORT ?? 8080);
const list = (value: string | undefined): string[] =>
  (value ?? '')
    .split(',')
    .map((e) => e.trim())
    .filter((e) => e.length > 0);
const edge = createEdge({
  apiGatewayUrl: process.env.API_GATEWAY_URL ?? 'http://127.0.0.1:3000',
  smsGatewayUrl: process.env.SMS_GATEWAY_URL ?? 'http://127.0.0.1:3001',
  // Proxies in front of the edge (an ingress) whose X-Forwarded-* are kept; none by default.
  trustedProxies: list(process.env.EDGE_TRUSTED_PROXIES),
  webhookRetryBudgetMs: Number(process.env.EDGE_WEBHOOK_RETRY_BUDGET_MS ?? 12_000),
});

// HOST: 127.0.0.1 keeps it to loopback (a container on the host's network).
const host = process.env.HOST?.trim() || '0.0.0.0';
edge.listen(port, host, () => {
  process.stdout.write(`edge listening on ${host}:${port}\n`);
});

const shutdown = (): void => {
  edge.close(() => process.exit(0));
  edge.closeIdleConnections();
  setTimeout(() => process.exit(0), 10_000).unref();
};
process.on('SIGTERM', shutdown);
process.on('SIGINT', shutdown);
