import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

type MetricKind = 'counter' | 'gauge' | 'histogram';

/** Seconds, from a fast query to a slow model call. */
const DEFAULT_BUCKETS = [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];

/** A metric as data: what `Metrics.create` registers. */
export interface MetricSpec<K extends MetricKind = MetricKind, L extends string = string> {
  readonly kind: K;
  readonly name: string;
  readonly help: string;
  readonly labelNames: readonly L[];
  readonly buckets?: number[];
}

type MetricOf<S> =
  S extends MetricSpec<'counter', infer L>
    ? Counter<L>
    : S extends MetricSpec<'gauge', infer L>
      ? Gauge<L>
      : S extends MetricSpec<'histogram', infer L>
        ? Histogram<L>
        : never;

// NoInfer: labels come from the argument only; a caller's context (a catalogue of MetricSpec)
// would otherwise widen them to string.
export const counter = <L extends string = never>(
  name: string,
  help: string,
  labelNames: readonly L[] = [],
): MetricSpec<'counter', NoInfer<L>> => ({ kind: 'counter', name, help, labelNames });

export const gauge = <L extends string = never>(
  name: string,
  help: string,
  labelNames: readonly L[] = [],
): MetricSpec<'gauge', NoInfer<L>> => ({ kind: 'gauge', name, help, labelNames });

export const histogram = <L extends string = never>(
  name: string,
  help: string,
  labelNames: readonly L[] = [],
  buckets?: number[],
): MetricSpec<'histogram', NoInfer<L>> => ({ kind: 'histogram', name, help, labelNames, buckets });

/**
 * A named set of metrics as data (a module's or service's catalogue); the function it answers
 * creates them on a process's Metrics, so the code that records them holds one typed object.
 */
export const defineMetrics =
  <S extends Record<string, MetricSpec>>(specs: S) =>
  (metrics: Metrics): MetricSet<S> => {
    const created = Object.entries(specs).map(([key, spec]): [string, unknown] => [
      key,
      metrics.create(spec),
    ]);
    return Object.fromEntries(created) as MetricSet<S>;
  };

type MetricSet<S> = { readonly [K in keyof S]: MetricOf<S[K]> };

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
    return this.create(counter(name, help, labelNames));
  }

  gauge<L extends string = never>(name: string, help: string, labelNames: readonly L[] = []): Gauge<L> {
    return this.create(gauge(name, help, labelNames));
  }

  histogram<L extends string = never>(
    name: string,
    help: string,
    labelNames: readonly L[] = [],
    buckets?: number[],
  ): Histogram<L> {
    return this.create(histogram(name, help, labelNames, buckets));
  }

  /** The metric `spec` describes, registered on first use. */
  create<S extends MetricSpec>(spec: S): MetricOf<S> {
    const { kind, name, help, labelNames } = spec;
    const existing = this.known.get(name);
    if (existing !== undefined) {
      const existingKind =
        existing instanceof Counter ? 'counter' : existing instanceof Gauge ? 'gauge' : 'histogram';
      if (existingKind !== kind) throw new Error(`Metric ${name} is already registered as a ${existingKind}`);
      return existing as MetricOf<S>;
    }
    const options = { name, help, labelNames, registers: [this.registry] };
    const metric =
      kind === 'counter'
        ? new Counter(options)
        : kind === 'gauge'
          ? new Gauge(options)
          : new Histogram({ ...options, buckets: spec.buckets ?? DEFAULT_BUCKETS });
    this.known.set(name, metric);
    return metric as MetricOf<S>;
  }

  /** Prometheus text exposition. */
  async expose(): Promise<{ contentType: string; body: string }> {
    return { contentType: this.registry.contentType, body: await this.registry.metrics() };
  }
}

/** The job metrics every worker host records, by queue. */
export const jobMetrics = defineMetrics({
  processed: counter('sprout_jobs_processed_total', 'Jobs completed successfully', ['queue']),
  failed: counter('sprout_jobs_failed_total', 'Job attempts that failed', ['queue', 'final']),
  duration: histogram('sprout_job_duration_seconds', 'Time spent processing a job', ['queue', 'outcome']),
  enqueued: counter('sprout_jobs_enqueued_total', 'Jobs added to a queue', ['queue']),
});
export type JobMetrics = ReturnType<typeof jobMetrics>;
