import fs from 'node:fs';
import path from 'node:path';
import yaml from 'js-yaml';
import { QUEUE_NAMES } from '@sprout/contracts';
import { SERVICES } from './support/services';

// Docker is not available where these tests run, so docker-compose.yml, the Dockerfile and k8s/
// are checked statically: valid YAML, and the wiring the stack depends on.

const ROOT = path.resolve(__dirname, '../../..');

type Doc = Record<string, unknown>;

function loadAll(file: string): Doc[] {
  return yaml
    .loadAll(fs.readFileSync(file, 'utf8'))
    .filter((d): d is Doc => d !== null && typeof d === 'object');
}

/** The value at a dotted path ("spec.template.spec.containers.0.command"), or undefined. */
function at(value: unknown, dotted: string): unknown {
  let current = value;
  for (const key of dotted.split('.')) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<string, unknown>)[key];
  }
  return current;
}

const list = (value: unknown): unknown[] => (Array.isArray(value) ? (value as unknown[]) : []);
const str = (value: unknown): string => (typeof value === 'string' ? value : '');

function yamlFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return yamlFiles(full);
    return /\.ya?ml$/.test(entry.name) ? [full] : [];
  });
}

describe('docker-compose.yml', () => {
  const compose = loadAll(path.join(ROOT, 'docker-compose.yml'))[0]!;
  const services = compose.services as Record<string, Doc>;
  const service = (name: string): Doc => services[name] ?? {};

  it('runs Postgres 16, Redis 7 without eviction and with AOF, the six services, migrate and the edge', () => {
    expect(Object.keys(services)).toEqual(
      expect.arrayContaining(['postgres', 'redis', 'migrate', 'edge', 'fake-twilio', ...SERVICES]),
    );
    expect(at(service('postgres'), 'image')).toBe('postgres:16');
    expect(at(service('postgres'), 'volumes')).toEqual(
      expect.arrayContaining([expect.stringMatching(/:\/var\/lib\/postgresql\/data$/)]),
    );
    expect(at(service('redis'), 'image')).toBe('redis:7');
    expect(list(at(service('redis'), 'command')).join(' ')).toBe(
      'redis-server --appendonly yes --maxmemory-policy noeviction',
    );
    expect(at(service('edge'), 'ports')).toEqual(['${PORT:-8080}:8080']);
  });

  it('starts each service from the one image after migrations, on its own port', () => {
    SERVICES.forEach((name, i) => {
      const s = service(name);
      expect(at(s, 'image')).toBe('sprout:local');
      expect(at(s, 'build')).toBe('.');
      expect(at(s, 'command')).toEqual(['node', `services/${name}/dist/main.js`]);
      expect(at(s, 'environment.PORT')).toBe(String(3000 + i));
      expect(str(at(s, 'environment.DATABASE_URL'))).toContain('@postgres:5432/');
      expect(at(s, 'environment.REDIS_URL')).toBe('redis://redis:6379');
      expect(at(s, 'depends_on.migrate.condition')).toBe('service_completed_successfully');
    });
    expect(at(service('migrate'), 'command')).toEqual(['node', 'tools/dist/stack/migrate.js']);
    expect(at(service('edge'), 'command')).toEqual(['node', 'services/edge/dist/main.js']);
    expect(at(service('edge'), 'environment.SMS_GATEWAY_URL')).toBe('http://sms-gateway:3001');
  });

  it('points every command at a file the build produces', () => {
    const entries: Record<string, string> = {
      'tools/dist/stack/migrate.js': 'tools/stack/migrate.ts',
      'tools/dist/seed/main.js': 'tools/seed/main.ts',
      'services/edge/dist/main.js': 'services/edge/src/main.ts',
      'libs/testing/dist/fakes/fake-twilio.main.js': 'libs/testing/src/fakes/fake-twilio.main.ts',
    };
    for (const name of SERVICES) entries[`services/${name}/dist/main.js`] = `services/${name}/src/main.ts`;
    for (const s of Object.values(services)) {
      const command = list(at(s, 'command'));
      if (command[0] !== 'node') continue;
      const source = entries[str(command[1])];
      expect(source).toBeDefined();
      expect(fs.existsSync(path.join(ROOT, source!))).toBe(true);
    }
  });
});

describe('Dockerfile', () => {
  const dockerfile = fs.readFileSync(path.join(ROOT, 'Dockerfile'), 'utf8');

  it('is multi-stage on node:20-bookworm-slim: deps (npm ci), build (nx), prune, runtime', () => {
    expect(dockerfile).toContain('ARG NODE_IMAGE=node:20-bookworm-slim');
    expect(dockerfile).toMatch(/FROM \$\{NODE_IMAGE\} AS deps[\s\S]*\n {2}&& npm ci /);
    expect(dockerfile).toMatch(/FROM deps AS build[\s\S]*nx run-many -t build/);
    expect(dockerfile).toMatch(/FROM build AS prune[\s\S]*npm prune --omit=dev/);
    expect(dockerfile).toMatch(/FROM \$\{NODE_IMAGE\} AS runtime[\s\S]*COPY --from=prune \/app \/app/);
  });

  it('needs nothing from outside but its base image and the npm packages', () => {
    // A syntax line makes BuildKit download a frontend image; apt-get needs Debian's mirrors.
    expect(dockerfile).not.toMatch(/^#\s*syntax=/m);
    expect(dockerfile).not.toMatch(/apt-get|apk add|curl |wget /);
    expect(dockerfile.match(/^FROM \S+/gm)).toEqual([
      'FROM ${NODE_IMAGE}',
      'FROM deps',
      'FROM build',
      'FROM ${NODE_IMAGE}',
    ]);
    // RUN --mount (secrets, caches) is BuildKit's alone: the legacy builder must read it too.
    expect(dockerfile).not.toMatch(/RUN --mount/);
    expect(dockerfile).toMatch(/ARG EXTRA_CA_CERTS=""\nRUN [\s\S]*NODE_EXTRA_CA_CERTS=[\s\S]*npm ci/);
  });

  it('keeps, when it prunes, the workspace of every command compose and k8s run', () => {
    const prune = /p\.workspaces = (\[[^\]]*\])/.exec(dockerfile)?.[1] ?? '[]';
    const kept = (JSON.parse(prune.replace(/'/g, '"')) as string[]).map(
      (pattern) => new RegExp(`^${pattern.replace('*', '[^/]+')}/`),
    );
    const compose = loadAll(path.join(ROOT, 'docker-compose.yml'))[0]!;
    const k8s = yamlFiles(path.join(ROOT, 'k8s')).flatMap(loadAll);
    const commands = [
      ...Object.values(compose.services as Record<string, Doc>).map((s) => list(at(s, 'command'))),
      ...k8s.map((d) => list(at(d, 'spec.template.spec.containers.0.command'))),
    ].filter((command) => command[0] === 'node');
    expect(commands.length).toBeGreaterThan(10);
    for (const command of commands) {
      const file = str(command[1]);
      expect([file, kept.some((k) => k.test(file))]).toEqual([file, true]);
    }
  });

  it('copies the manifest of every workspace before npm ci', () => {
    const manifest = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
      workspaces: string[];
    };
    const workspaces = manifest.workspaces.flatMap((pattern) =>
      pattern.endsWith('/*')
        ? fs
            .readdirSync(path.join(ROOT, pattern.slice(0, -2)))
            .filter((d) => fs.existsSync(path.join(ROOT, pattern.slice(0, -2), d, 'package.json')))
            .map((d) => `${pattern.slice(0, -2)}/${d}`)
        : [pattern],
    );
    for (const workspace of workspaces) {
      expect(dockerfile).toContain(`COPY ${workspace}/package.json ${workspace}/`);
    }
  });
});

describe('k8s', () => {
  const k8s = path.join(ROOT, 'k8s');
  const docs = yamlFiles(k8s).flatMap((file) => loadAll(file).map((doc) => ({ file, doc })));
  const base = docs.filter((d) => d.file.includes(`${path.sep}base${path.sep}`)).map((d) => d.doc);
  const deployments = base.filter((d) => d.kind === 'Deployment');
  const named = (docsOf: Doc[], kind: string, name: string) =>
    docsOf.find((d) => d.kind === kind && at(d, 'metadata.name') === name);
  const kustomizations = docs.filter((d) => d.doc.kind === 'Kustomization' || d.doc.kind === 'Component');

  it('parses, and every document names its kind and apiVersion', () => {
    expect(docs.length).toBeGreaterThan(20);
    for (const { doc } of docs) {
      expect(typeof doc.apiVersion).toBe('string');
      expect(typeof doc.kind).toBe('string');
    }
  });

  it('refers only to files and folders that exist in every kustomization', () => {
    expect(kustomizations.map((k) => path.relative(k8s, k.file)).sort()).toEqual([
      'base/kustomization.yaml',
      'components/autoscaling/kustomization.yaml',
      'monitoring/kustomization.yaml',
      'overlays/dev/kustomization.yaml',
      'overlays/prod/kustomization.yaml',
    ]);
    for (const { file, doc } of kustomizations) {
      for (const ref of [...list(doc.resources), ...list(doc.components)]) {
        expect(fs.existsSync(path.resolve(path.dirname(file), str(ref)))).toBe(true);
      }
    }
  });

  it('has a Deployment and a Service for each service, with health probes and config', () => {
    for (const [i, name] of SERVICES.entries()) {
      const deployment = named(deployments, 'Deployment', name);
      expect(deployment).toBeDefined();
      const container = at(deployment, 'spec.template.spec.containers.0');
      expect(at(container, 'command')).toEqual(['node', `services/${name}/dist/main.js`]);
      expect(at(container, 'livenessProbe.httpGet.path')).toBe('/health/live');
      expect(at(container, 'readinessProbe.httpGet.path')).toBe('/health/ready');
      expect(at(container, 'env')).toContainEqual({ name: 'PORT', value: String(3000 + i) });
      expect(at(container, 'envFrom')).toEqual([
        { configMapRef: { name: 'sprout-config' } },
        { secretRef: { name: 'sprout-secrets' } },
      ]);
      expect(at(named(base, 'Service', name), 'spec.ports.0.port')).toBe(3000 + i);
    }
    const job = base.find((d) => d.kind === 'Job');
    expect(at(job, 'spec.template.spec.containers.0.command')).toEqual([
      'node',
      'tools/dist/stack/migrate.js',
    ]);
  });

  it('scales each queue worker with KEDA on its BullMQ waiting lists', () => {
    const scaled = docs.filter((d) => d.doc.kind === 'ScaledObject').map((d) => d.doc);
    expect(scaled.map((s) => at(s, 'metadata.name')).sort()).toEqual(
      ['ai-responder', 'image-processor', 'sms-gateway', 'survey-scheduler'].sort(),
    );
    const queues: string[] = [];
    for (const s of scaled) {
      expect(named(deployments, 'Deployment', str(at(s, 'spec.scaleTargetRef.name')))).toBeDefined();
      for (const trigger of list(at(s, 'spec.triggers'))) {
        expect(at(trigger, 'type')).toBe('redis');
        const match = /^sprout:(.+):wait$/.exec(str(at(trigger, 'metadata.listName')));
        expect(match).not.toBeNull();
        expect(QUEUE_NAMES).toContain(match?.[1]);
        expect(at(trigger, 'authenticationRef.name')).toBe('sprout-redis');
        queues.push(match?.[1] ?? '');
      }
    }
    expect(queues).toEqual(
      expect.arrayContaining(['sms.inbound', 'sms.outbound', 'image.analyze', 'survey.lifecycle']),
    );
  });
});

describe('k8s/monitoring', () => {
  const dir = path.join(ROOT, 'k8s', 'monitoring');
  const docs = yamlFiles(dir).flatMap((file) => loadAll(file).map((doc) => ({ file, doc })));
  const ofKind = (kind: string): Doc[] => docs.filter((d) => d.doc.kind === kind).map((d) => d.doc);
  const dashboard = JSON.parse(fs.readFileSync(path.join(dir, 'grafana-dashboard.json'), 'utf8')) as Doc;

  /** Every metric the services register (the names given to Metrics' counter, gauge and histogram). */
  const registered = new Set<string>();
  const sources = (d: string): string[] =>
    fs.readdirSync(d, { withFileTypes: true }).flatMap((entry) => {
      const full = path.join(d, entry.name);
      if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : sources(full);
      return entry.name.endsWith('.ts') ? [full] : [];
    });
  for (const root of ['services', 'libs/platform/src']) {
    for (const file of sources(path.join(ROOT, root))) {
      if (file.includes(`${path.sep}test${path.sep}`) || file.includes(`${path.sep}dist${path.sep}`))
        continue;
      for (const match of fs.readFileSync(file, 'utf8').matchAll(/'(sprout_[a-z0-9_]+)'/g)) {
        registered.add(match[1] ?? '');
      }
    }
  }
  /** prom-client's default metrics (collectDefaultMetrics) and Prometheus' own. */
  const BUILT_IN = /^(process_|nodejs_|up$)/;

  /** The metric names a PromQL expression reads. */
  const metricsOf = (expr: string): string[] =>
    [...expr.matchAll(/\b([a-z_][a-z0-9_]*)\s*(?=\{|\[|\)|$|\s*[/><=*+-])/g)]
      .map((m) => m[1] ?? '')
      .filter((name) => name.startsWith('sprout_') || BUILT_IN.test(name));
  const known = (metric: string): boolean =>
    BUILT_IN.test(metric) || registered.has(metric.replace(/_(bucket|sum|count)$/, ''));
  /** Queue names in label matchers must be real queues. */
  const queuesOf = (expr: string): string[] => [...expr.matchAll(/queue="([^"]+)"/g)].map((m) => m[1] ?? '');

  it('is a kustomize Component whose resources and generated files exist', () => {
    const [component] = ofKind('Component');
    expect(component?.apiVersion).toBe('kustomize.config.k8s.io/v1alpha1');
    for (const ref of list(component?.resources)) expect(fs.existsSync(path.join(dir, str(ref)))).toBe(true);
    const generator = list(component?.configMapGenerator)[0];
    expect(at(generator, 'options.labels.grafana_dashboard')).toBe('1');
    for (const entry of list(at(generator, 'files'))) {
      const file = str(entry).split('=').at(-1) ?? '';
      expect(fs.existsSync(path.join(dir, file))).toBe(true);
    }
  });

  it('scrapes /metrics on the http port of every service', () => {
    const [podMonitor] = ofKind('PodMonitor');
    expect(podMonitor?.apiVersion).toBe('monitoring.coreos.com/v1');
    const values = list(at(podMonitor, 'spec.selector.matchExpressions.0.values')).map(str);
    expect(values.sort()).toEqual([...SERVICES].sort());
    expect(at(podMonitor, 'spec.selector.matchExpressions.0.key')).toBe('app.kubernetes.io/name');
    expect(at(podMonitor, 'spec.podMetricsEndpoints.0')).toMatchObject({ port: 'http', path: '/metrics' });
  });

  it('alerts on queue depth, failed jobs, reply latency, spend and dependencies, with metrics that exist', () => {
    const [rules] = ofKind('PrometheusRule');
    expect(rules?.apiVersion).toBe('monitoring.coreos.com/v1');
    const all = list(at(rules, 'spec.groups')).flatMap((group) => list(at(group, 'rules')));
    const names = all.map((rule) => str(at(rule, 'alert')));
    expect(new Set(names).size).toBe(names.length);
    expect(names).toEqual(
      expect.arrayContaining([
        'SproutQueueBacklog',
        'SproutQueueStalled',
        'SproutJobsFailing',
        'SproutReplyLatencyHigh',
        'SproutSpendNearLimit',
        'SproutDependencyUnavailable',
      ]),
    );
    expect(registered.size).toBeGreaterThan(10);
    for (const rule of all) {
      const expr = str(at(rule, 'expr'));
      expect(metricsOf(expr).length).toBeGreaterThan(0);
      for (const metric of metricsOf(expr))
        expect([str(at(rule, 'alert')), metric, known(metric)]).toEqual([
          str(at(rule, 'alert')),
          metric,
          true,
        ]);
      for (const queue of queuesOf(expr)) expect(QUEUE_NAMES).toContain(queue);
      expect(['warning', 'critical']).toContain(at(rule, 'labels.severity'));
      expect(str(at(rule, 'annotations.summary'))).not.toBe('');
    }
  });

  it('has a Grafana dashboard whose panels query metrics that exist', () => {
    expect(dashboard.uid).toBe('sprout-overview');
    const panels = list(dashboard.panels);
    const ids = panels.map((panel) => at(panel, 'id'));
    expect(new Set(ids).size).toBe(ids.length);
    const targets = panels.flatMap((panel) => list(at(panel, 'targets')));
    const exprs = targets.map((target) => str(at(target, 'expr')));
    expect(exprs.length).toBeGreaterThan(10);
    const read = new Set(exprs.flatMap(metricsOf));
    for (const metric of read) expect([metric, known(metric)]).toEqual([metric, true]);
    for (const queue of exprs.flatMap(queuesOf)) expect(QUEUE_NAMES).toContain(queue);
    // The four: queue depth, failed jobs, reply latency, spend.
    for (const metric of [
      'sprout_queue_jobs',
      'sprout_jobs_failed_total',
      'sprout_job_duration_seconds_bucket',
      'sprout_spend_today_dollars',
    ]) {
      expect(read).toContain(metric);
    }
    for (const panel of panels.filter((p) => at(p, 'type') !== 'row')) {
      expect(at(panel, 'datasource.uid')).toBe('${datasource}');
    }
  });
});
