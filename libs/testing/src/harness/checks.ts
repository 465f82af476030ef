/** A metrics registry as prom-client keeps it (the platform's `Metrics.registry`, the edge's). */
export interface MetricsRegistry {
  getSingleMetric(name: string):
    | {
        get(): Promise<{
          values: ReadonlyArray<{ value: number; labels: Partial<Record<string, string | number>> }>;
        }>;
      }
    | undefined;
}

/** The value of a metric with these labels (the first such series), 0 while it has none. */
export async function metricValue(
  registry: MetricsRegistry,
  name: string,
  labels: Record<string, string> = {},
): Promise<number> {
  const metric = await registry.getSingleMetric(name)?.get();
  const value = metric?.values.find((v) => Object.entries(labels).every(([k, l]) => v.labels[k] === l));
  return value?.value ?? 0;
}

/**
 * The platform's probes over HTTP: liveness, readiness with Postgres and Redis up, and Prometheus
 * metrics labelled with the service's name.
 */
export async function expectProbesAnswer(url: string | undefined, serviceName: string): Promise<void> {
  if (url === undefined) throw new Error('the service is not listening');
  const live = await fetch(`${url}/health/live`);
  expect(live.status).toBe(200);
  expect(await live.json()).toEqual({ status: 'ok' });

  const ready = await fetch(`${url}/health/ready`);
  expect(ready.status).toBe(200);
  expect(await ready.json()).toMatchObject({
    status: 'ok',
    checks: { database: { status: 'up' }, redis: { status: 'up' } },
  });

  const metrics = await fetch(`${url}/metrics`);
  expect(metrics.status).toBe(200);
  const text = await metrics.text();
  expect(text).toContain('process_resident_memory_bytes');
  expect(text).toContain(`service="${serviceName}"`);
}
