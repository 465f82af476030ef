import fs from 'node:fs';
import path from 'node:path';
import { jobDefinitions } from '@sprout/contracts';
import { validateObjects } from './k8s-schema';
import type { K8sObject } from './kustomize';

// What a rendered deployment must satisfy beyond the schemas: commands that run a file the build
// makes, KEDA triggers on queues that exist, references to objects that are there.

type Doc = Record<string, unknown>;
const asDoc = (value: unknown): Doc =>
  value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Doc) : {};
const asList = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);
const text = (value: unknown): string =>
  typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' ? String(value) : '';

const WORKLOADS = new Set(['Deployment', 'StatefulSet', 'DaemonSet', 'Job']);

/** The pod spec of a workload object, or null for other kinds. */
function podSpec(o: K8sObject): Doc | null {
  if (!WORKLOADS.has(o.kind)) return null;
  return asDoc(asDoc(asDoc(o.spec).template).spec);
}

const label = (o: K8sObject): string => `${o.kind} ${o.metadata.namespace ?? ''}/${o.metadata.name}`;

/**
 * The source a built entry point comes from: every package builds its folders into `dist` with SWC,
 * `swc src -d dist --strip-leading-paths` (`<pkg>/dist/a/b.js` from `<pkg>/src/a/b.ts`) or, for
 * tools, `swc stack seed -d dist` (`tools/dist/seed/b.js` from `tools/seed/b.ts`). Null when the
 * path is in no dist folder.
 */
function sourceOfBuiltFile(root: string, file: string): string | null {
  const match = /^((?:libs|services)\/[^/]+|tools)\/dist\/(.+)\.js$/.exec(file);
  if (!match) return null;
  const [, pkg, rel] = match;
  const manifest = path.join(root, pkg!, 'package.json');
  if (!fs.existsSync(manifest)) return null;
  const build = text(asDoc((JSON.parse(fs.readFileSync(manifest, 'utf8')) as Doc).scripts).build);
  const folders = /\bswc ((?:[\w-]+ )+)-d dist\b/.exec(build)?.[1]?.trim().split(' ') ?? [];
  const sources = build.includes('--strip-leading-paths')
    ? folders.map((folder) => path.join(root, pkg!, folder, `${rel}.ts`))
    : folders.filter((folder) => rel!.startsWith(`${folder}/`)).map(() => path.join(root, pkg!, `${rel}.ts`));
  return sources.find((source) => fs.existsSync(source)) ?? null;
}

/** Every problem in a rendered deployment, one line each; [] when it is sound. */
export function deployProblems(root: string, objects: K8sObject[]): string[] {
  const problems = validateObjects(objects);
  const find = (kind: string, name: string) =>
    objects.find((o) => o.kind === kind && o.metadata.name === name);
  const config = find('ConfigMap', 'sprout-config');
  const prefix = text(asDoc(config?.data).BULLMQ_PREFIX) || 'sprout';

  for (const o of objects) {
    const pod = podSpec(o);
    if (!pod) continue;
    for (const c of [...asList(pod.initContainers), ...asList(pod.containers)].map(asDoc)) {
      const image = text(c.image);
      // The project's image (named sprout, whatever registry the overlay puts it in).
      if (!/(^|\/)sprout(:[^/]*)?$/.test(image)) continue;
      const command = asList(c.command).map(String);
      if (command[0] !== 'node' || command[1] === undefined) {
        problems.push(
          `${label(o)}: container ${text(c.name)} runs ${JSON.stringify(command)}, not node <file>`,
        );
      } else if (!sourceOfBuiltFile(root, command[1])) {
        problems.push(
          `${label(o)}: container ${text(c.name)} runs ${command[1]}, which the build makes no file for`,
        );
      }
      for (const from of asList(c.envFrom).map(asDoc)) {
        const ref = text(asDoc(from.configMapRef).name);
        if (ref && !find('ConfigMap', ref))
          problems.push(`${label(o)}: envFrom names the ConfigMap ${ref}, which is not rendered`);
      }
    }
  }

  for (const o of objects.filter((x) => x.kind === 'ScaledObject')) {
    const spec = asDoc(o.spec);
    const targetName = text(asDoc(spec.scaleTargetRef).name);
    if (!find('Deployment', targetName))
      problems.push(`${label(o)}: scales ${targetName}, which is no Deployment here`);
    for (const trigger of asList(spec.triggers).map(asDoc)) {
      const auth = text(asDoc(trigger.authenticationRef).name);
      if (auth && !find('TriggerAuthentication', auth))
        problems.push(`${label(o)}: authenticationRef ${auth} is not rendered`);
      if (trigger.type !== 'redis') continue;
      const list = text(asDoc(trigger.metadata).listName);
      const match = new RegExp(`^${prefix.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:(.+):wait$`).exec(list);
      if (!match || !Object.hasOwn(jobDefinitions, match[1]!)) {
        problems.push(
          `${label(o)}: the trigger's list ${list} names no queue in the job map ` +
            `(${prefix}:<queue>:wait with a queue of libs/contracts/src/jobs.ts)`,
        );
      }
    }
  }
  return problems;
}

export interface Scaling {
  worker: string;
  /** Waiting jobs per replica, by queue. */
  targets: Record<string, number>;
  min: number;
  max: number;
}

/** Each ScaledObject's queues, per-replica targets and replica range. */
export function scalingOf(objects: K8sObject[]): Scaling[] {
  return objects
    .filter((o) => o.kind === 'ScaledObject')
    .map((o) => {
      const spec = asDoc(o.spec);
      const targets: Record<string, number> = {};
      for (const trigger of asList(spec.triggers).map(asDoc)) {
        const meta = asDoc(trigger.metadata);
        const queue = /:(.+):wait$/.exec(text(meta.listName))?.[1] ?? text(meta.listName);
        targets[queue] = Number(meta.listLength);
      }
      return {
        worker: text(asDoc(spec.scaleTargetRef).name),
        targets,
        min: Number(spec.minReplicaCount ?? 0),
        max: Number(spec.maxReplicaCount ?? 100),
      };
    })
    .sort((a, b) => a.worker.localeCompare(b.worker));
}
