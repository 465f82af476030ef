import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { deployProblems, scalingOf, type Scaling } from './support/deploy-checks';
import {
  byKey,
  copyK8s,
  kubectlHasKustomize,
  kubectlKustomize,
  renderKustomization,
  type K8sObject,
} from './support/kustomize';

// Every way k8s/ is meant to be applied (each overlay, with and without the monitoring component)
// is rendered and validated against the Kubernetes, KEDA and Prometheus Operator schemas, plus
// the project's own wiring: commands run built files, KEDA lists name real queues.

const ROOT = path.resolve(__dirname, '../../..');
const OVERLAYS = ['dev', 'prod'] as const;
const MONITORING = '../../monitoring';

const variants = OVERLAYS.flatMap((overlay) => [
  { name: overlay, overlay, components: [] as string[] },
  { name: `${overlay} + monitoring`, overlay, components: [MONITORING] },
]);

function render(k8s: string, overlay: string, components: string[]): K8sObject[] {
  return renderKustomization(path.join(k8s, 'overlays', overlay), components);
}

/** A k8s/ copy whose overlay lists the monitoring component, as the README says to add it. */
function withMonitoringListed(overlay: string): string {
  const k8s = copyK8s(ROOT, os.tmpdir());
  const file = path.join(k8s, 'overlays', overlay, 'kustomization.yaml');
  const text = fs.readFileSync(file, 'utf8');
  fs.writeFileSync(file, text.replace(/^components:\n/m, `components:\n  - ${MONITORING}\n`));
  return k8s;
}

const tmpDirs: string[] = [];
afterAll(() => {
  for (const dir of tmpDirs) fs.rmSync(path.dirname(dir), { recursive: true, force: true });
});

describe.each(variants)('k8s/overlays/$name', ({ overlay, components }) => {
  const objects = render(path.join(ROOT, 'k8s'), overlay, components);

  it('renders the whole stack, and every object is valid against its schema and the project', () => {
    expect(objects.length).toBeGreaterThanOrEqual(26);
    const kinds = new Set(objects.map((o) => o.kind));
    for (const kind of ['Namespace', 'ConfigMap', 'Deployment', 'Service', 'Job', 'ScaledObject'])
      expect(kinds).toContain(kind);
    if (components.length > 0) {
      expect(kinds).toContain('PodMonitor');
      expect(kinds).toContain('PrometheusRule');
    }
    expect(deployProblems(ROOT, objects)).toEqual([]);
  });
});

// kubectl is not on every machine (nor on npm); where it is, the renderer must agree with it.
(kubectlHasKustomize() ? describe : describe.skip)('the renderer against kubectl kustomize', () => {
  it.each(variants)('renders $name as kubectl does', ({ overlay, components }) => {
    const k8s = components.length > 0 ? withMonitoringListed(overlay) : path.join(ROOT, 'k8s');
    if (components.length > 0) tmpDirs.push(k8s);
    const ours = render(path.join(ROOT, 'k8s'), overlay, components);
    const theirs = kubectlKustomize(path.join(k8s, 'overlays', overlay));
    expect(byKey(ours, { foldSpace: true })).toEqual(byKey(theirs, { foldSpace: true }));
  });
});

describe('a broken copy of k8s/ fails', () => {
  /** Renders a copy of k8s/ after `edit` and returns the problems found. */
  function problemsAfter(
    file: string,
    edit: (text: string) => string,
    { overlay = 'dev', components = [] as string[] } = {},
  ): string[] {
    const k8s = copyK8s(ROOT, os.tmpdir());
    tmpDirs.push(k8s);
    const full = path.join(k8s, file);
    const before = fs.readFileSync(full, 'utf8');
    const after = edit(before);
    expect(after).not.toBe(before);
    fs.writeFileSync(full, after);
    return deployProblems(ROOT, render(k8s, overlay, components));
  }

  it('on an unknown field in a container (bogusField)', () => {
    const problems = problemsAfter('base/api-gateway.yaml', (t) =>
      t.replace('          image: sprout\n', '          image: sprout\n          bogusField: true\n'),
    );
    expect(problems).toEqual([expect.stringMatching(/^Deployment sprout-dev\/api-gateway: .*bogusField/)]);
  });

  it('on a misspelt field of a PodMonitor (pathh)', () => {
    const problems = problemsAfter(
      'monitoring/pod-monitor.yaml',
      (t) => t.replace(/\bpath: \/metrics/, 'pathh: /metrics'),
      {
        components: [MONITORING],
      },
    );
    expect(problems).toEqual([expect.stringMatching(/^PodMonitor sprout-dev\/sprout: .*pathh/)]);
  });

  it('on a wrong type (replicas: "two")', () => {
    const problems = problemsAfter('base/monitor.yaml', (t) => t.replace('replicas: 1', "replicas: 'two'"));
    expect(problems.length).toBeGreaterThan(0);
    expect(problems.every((p) => p.startsWith('Deployment sprout-dev/monitor: '))).toBe(true);
    expect(problems.join('\n')).toMatch(/replicas must be integer/);
  });

  it('on a command that runs no built file', () => {
    const problems = problemsAfter('base/sms-gateway.yaml', (t) =>
      t.replace('services/sms-gateway/dist/main.js', 'services/sms-gateway/dist/mian.js'),
    );
    expect(problems).toEqual([
      'Deployment sprout-dev/sms-gateway: container sms-gateway runs services/sms-gateway/dist/mian.js, which the build makes no file for',
    ]);
  });

  it('on a KEDA trigger naming no queue of the job map', () => {
    const problems = problemsAfter('components/autoscaling/scaled-objects.yaml', (t) =>
      t.replace('sprout:sms.inbound:wait', 'sprout:sms.inbond:wait'),
    );
    expect(problems).toEqual([
      expect.stringMatching(
        /^ScaledObject sprout-dev\/ai-responder: .*sprout:sms.inbond:wait names no queue/,
      ),
    ]);
  });
});

describe("README's scaling table", () => {
  /** The rows of the table under "Autoscaling" in README.md. */
  function readmeRows(): { worker: string; targets: string; dev: string; prod: string }[] {
    const readme = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');
    const start = readme.indexOf(
      '| worker | scales on (waiting jobs per replica) | replicas, dev | replicas, prod |',
    );
    expect(start).toBeGreaterThan(-1);
    return readme
      .slice(start)
      .split('\n')
      .slice(2)
      .filter((line, i, lines) => line.startsWith('|') && lines.slice(0, i).every((l) => l.startsWith('|')))
      .map((line) => {
        const [worker, targets, dev, prod] = line
          .split('|')
          .slice(1, -1)
          .map((cell) => cell.trim().replace(/`/g, ''));
        return { worker: worker!, targets: targets!, dev: dev!, prod: prod! };
      });
  }
  const describeTargets = (s: Scaling): string =>
    Object.entries(s.targets)
      .map(([queue, n]) => `${queue} ${n}`)
      .join(', ');
  const range = (s: Scaling): string => `${s.min} to ${s.max}`;

  it('states the queues, per-replica targets and replica ranges the overlays render', () => {
    const dev = scalingOf(render(path.join(ROOT, 'k8s'), 'dev', []));
    const prod = scalingOf(render(path.join(ROOT, 'k8s'), 'prod', []));
    expect(dev.map((s) => s.worker)).toEqual(prod.map((s) => s.worker));
    const expected = dev.map((s, i) => ({
      worker: s.worker,
      targets: describeTargets(s),
      dev: range(s),
      prod: range(prod[i]!),
    }));
    expect(prod.map(describeTargets)).toEqual(dev.map(describeTargets));
    expect(readmeRows()).toEqual(expected);
  });
});
