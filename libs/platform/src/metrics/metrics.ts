import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/**
 * One registry per process. Helpers return the already registered metric when called again with
 * the same name, so modules can declare what they use without coordinating.
 */
export class Metrics {
  readonly registry = new Registry();
  private readonly known = new Map<string, Counter | Gauge | Histogram>();

  constructor(service: string, collectDefaults = true) {
    this.registry.setDefaultLabels({ service });
    if (collectDefaults) collectDefaultMetrics({ register: this.registry });
  }

  counter<L extends string = never>(name: string, help: string, labelNames: readonly L[] = []): Counter<L> {
    return this.getOrCreate(
      name,
      'counter',
      () => new Counter<L>({ name, help, labelNames, registers: [this.registry] }),
    );
  }

  gauge<L extends string = never>(name: string, help: string, labelNames: readonly L[] = []): Gauge<L> {
    return this.getOrCreate(
      name,
      'gauge',
      () => new Gauge<L>({ name, help, labelNames, registers: [this.registry] }),
    );
  }

  histogram<L extends string = never>(
    name: string,
    help: string,
    labelNames: readonly L[] = [],
    buckets: number[] = [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60],
  ): Histogram<L> {
    return this.getOrCreate(
      name,
      'histogram',
      () => new Histogram<L>({ name, help, labelNames, buckets, registers: [this.registry] }),
    );
  }

  /** Prometheus text exposition. */
  async expose(): Promise<{ contentType: string; body: string }> {
    return { contentType: this.registry.contentType, body: await this.registry.metrics() };
  }

  private getOrCreate<M extends Counter<string> | Gauge<string> | Histogram<string>>(
    name: string,
    kind: 'counter' | 'gauge' | 'histogram',
    create: () => M,
  ): M {
    const existing = this.known.get(name);
    if (existing !== undefined) {
      const existingKind =
        existing instanceof Counter ? 'counter' : existing instanceof Gauge ? 'gauge' : 'histogram';
      if (existingKind !== kind) throw new Error(`Metric ${name} is already registered as a ${existingKind}`);
      return existing as M;
    }
    const metric = create();
    this.known.set(name, metric);
    return metric;
  }
}

/** The job metrics every worker host records, by queue. */
export const jobMetrics = (metrics: Metrics) => ({
  processed: metrics.counter('sprout_jobs_processed_total', 'Jobs completed successfully', [
    'queue',
  ] as const),
  failed: metrics.counter('sprout_jobs_failed_total', 'Job attempts that failed', [
    'queue',
    'final',
  ] as const),
  duration: metrics.histogram('sprout_job_duration_seconds', 'Time spent processing a job', [
    'queue',
    'outcome',
  ] as const),
  enqueued: metrics.counter('sprout_jobs_enqueued_total', 'Jobs added to a queue', ['queue'] as const),
});
export type JobMetrics = ReturnType<typeof jobMetrics>;
