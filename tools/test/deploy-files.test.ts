import fs from 'node:fs';
import path from 'node:path';
import yaml from 'js-yaml';
import { QUEUE_NAMES } from '@sprout/contracts';

// Docker is not available where these tests run, so docker-compose.yml, the Dockerfile and k8s/
// are checked statically: valid YAML, and the wiring the stack depends on.

const ROOT = path.resolve(__dirname, '../..');
const SERVICES = [
  'api-gateway',
  'sms-gateway',
  'ai-responder',
  'survey-scheduler',
  'image-processor',
  'monitor',
];

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
    expect(at(service('migrate'), 'command')).toEqual(['node', 'tools/dist/migrate.js']);
    expect(at(service('edge'), 'command')).toEqual(['node', 'tools/dist/edge.main.js']);
    expect(at(service('edge'), 'environment.SMS_GATEWAY_URL')).toBe('http://sms-gateway:3001');
  });

  it('points every command at a file the build produces', () => {
    const entries: Record<string, string> = {
      'tools/dist/migrate.js': 'tools/src/migrate.ts',
      'tools/dist/seed.js': 'tools/src/seed.ts',
      'tools/dist/edge.main.js': 'tools/src/edge.main.ts',
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

  it('is multi-stage on node:20-bookworm-slim: deps (npm ci), build (nx), runtime', () => {
    expect(dockerfile).toContain('ARG NODE_IMAGE=node:20-bookworm-slim');
    expect(dockerfile).toMatch(/FROM \$\{NODE_IMAGE\} AS deps[\s\S]*RUN npm ci/);
    expect(dockerfile).toMatch(/FROM deps AS build[\s\S]*nx run-many -t build/);
    expect(dockerfile).toMatch(/FROM \$\{NODE_IMAGE\} AS runtime/);
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
    expect(at(job, 'spec.template.spec.containers.0.command')).toEqual(['node', 'tools/dist/migrate.js']);
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
