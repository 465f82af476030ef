import { createEdge, createEdgeMetricsServer } from './edge';
import { EdgeConfigError, loadEdgeConfig } from './config';

// The edge as its own process (docker compose, Kubernetes); `npm start` runs it in-process. It
// loads no more than the proxy needs (not the services' platform), so it stays small.

function load(): ReturnType<typeof loadEdgeConfig> {
  try {
    return loadEdgeConfig(process.env);
  } catch (error) {
    if (!(error instanceof EdgeConfigError)) throw error;
    process.stderr.write(`${error.message}\n`);
    process.exit(1);
  }
}

const config = load();
const edge = createEdge(config.edge);
const metrics = createEdgeMetricsServer(edge);

// A spool folder that cannot be written stops the edge at once, not at the first outage.
(edge.spool?.opened() ?? Promise.resolve()).then(
  () => {
    edge.listen(config.port, config.host, () => {
      process.stdout.write(
        `edge listening on ${config.host}:${config.port}; metrics on ${config.host}:${config.metricsPort}; ` +
          `webhook spool ${config.edge.spoolDir}\n`,
      );
    });
    metrics.listen(config.metricsPort, config.host);
  },
  (error: unknown) => {
    process.stderr.write(
      `Invalid configuration: EDGE_SPOOL_DIR ${config.edge.spoolDir} cannot be used: ${String(error)}\n`,
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
