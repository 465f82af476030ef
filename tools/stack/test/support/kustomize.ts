import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import yaml from 'js-yaml';

// A kustomize renderer for the subset k8s/ uses (resources, components, namespace, labels,
// images, replicas, JSON 6902 patches, ConfigMap and Secret generators without name hashes), so
// the rendered objects can be validated where no kustomize binary exists (kustomize is not on
// npm). Anything outside the subset throws, and where `kubectl kustomize` runs the tests compare
// this renderer's output with it.

export type K8sObject = Record<string, unknown> & {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; labels?: Record<string, string> } & Record<string, unknown>;
};

type Doc = Record<string, unknown>;

const SUPPORTED = new Set([
  'apiVersion',
  'kind',
  'resources',
  'components',
  'namespace',
  'labels',
  'images',
  'replicas',
  'patches',
  'configMapGenerator',
  'secretGenerator',
]);
// Kinds that live outside namespaces (the namespace transformer leaves them alone).
const CLUSTER_SCOPED = new Set([
  'Namespace',
  'ClusterRole',
  'ClusterRoleBinding',
  'CustomResourceDefinition',
]);

const asList = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);
const text = (value: unknown): string =>
  typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' ? String(value) : '';
const asDoc = (value: unknown): Doc =>
  value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Doc) : {};
const key = (o: K8sObject): string => `${o.kind}/${o.metadata.namespace ?? ''}/${o.metadata.name}`;

function readKustomization(dir: string): Doc {
  const file = ['kustomization.yaml', 'kustomization.yml', 'Kustomization']
    .map((name) => path.join(dir, name))
    .find((f) => fs.existsSync(f));
  if (!file) throw new Error(`${dir}: no kustomization.yaml`);
  const doc = asDoc(yaml.load(fs.readFileSync(file, 'utf8')));
  for (const field of Object.keys(doc)) {
    if (!SUPPORTED.has(field)) throw new Error(`${file}: "${field}" is not supported by this renderer`);
  }
  return doc;
}

function loadObjects(file: string): K8sObject[] {
  return yaml
    .loadAll(fs.readFileSync(file, 'utf8'))
    .filter((d): d is K8sObject => d !== null && typeof d === 'object')
    .map((d) => {
      if (typeof d.kind !== 'string' || typeof d.apiVersion !== 'string' || !d.metadata?.name)
        throw new Error(`${file}: an object without apiVersion, kind or metadata.name`);
      return d;
    });
}

/** Every string leaf under `value` whose key is `field`, replaced by fn. */
function mapField(value: unknown, field: string, fn: (s: string) => string): void {
  if (Array.isArray(value)) {
    for (const item of value) mapField(item, field, fn);
    return;
  }
  if (value === null || typeof value !== 'object') return;
  const doc = value as Doc;
  for (const [k, v] of Object.entries(doc)) {
    if (k === field && typeof v === 'string') doc[k] = fn(v);
    else mapField(v, field, fn);
  }
}

function unescapePointer(token: string): string {
  return token.replace(/~1/g, '/').replace(/~0/g, '~');
}

/** RFC 6902 add / remove / replace, as kustomize applies them. */
function applyJsonPatch(target: K8sObject, ops: unknown[], where: string): void {
  for (const raw of ops) {
    const op = asDoc(raw);
    const tokens = String(op.path).split('/').slice(1).map(unescapePointer);
    const last = tokens.pop();
    if (last === undefined) throw new Error(`${where}: a patch without a path`);
    let parent: unknown = target;
    for (const token of tokens) {
      parent = Array.isArray(parent) ? parent[Number(token)] : asDoc(parent)[token];
      if (parent === undefined)
        throw new Error(`${where}: ${String(op.path)} does not exist in ${key(target)}`);
    }
    const container = parent as Doc | unknown[];
    const exists = Array.isArray(container) ? Number(last) < container.length : last in container;
    switch (op.op) {
      case 'add':
        if (Array.isArray(container)) {
          if (last === '-') container.push(op.value);
          else container.splice(Number(last), 0, op.value);
        } else container[last] = op.value;
        break;
      case 'replace':
        if (!exists) throw new Error(`${where}: replace of a missing ${String(op.path)} in ${key(target)}`);
        if (Array.isArray(container)) container[Number(last)] = op.value;
        else container[last] = op.value;
        break;
      case 'remove':
        if (!exists) throw new Error(`${where}: remove of a missing ${String(op.path)} in ${key(target)}`);
        if (Array.isArray(container)) container.splice(Number(last), 1);
        else delete container[last];
        break;
      default:
        throw new Error(`${where}: patch op ${String(op.op)} is not supported by this renderer`);
    }
  }
}

function matchesTarget(o: K8sObject, target: Doc): boolean {
  const [group, version] = o.apiVersion.includes('/') ? o.apiVersion.split('/') : ['', o.apiVersion];
  if (target.labelSelector !== undefined || target.annotationSelector !== undefined)
    throw new Error('patch targets by selector are not supported by this renderer');
  return (
    (target.group === undefined || target.group === group) &&
    (target.version === undefined || target.version === version) &&
    (target.kind === undefined || target.kind === o.kind) &&
    (target.name === undefined || new RegExp(`^(?:${text(target.name)})$`).test(o.metadata.name))
  );
}

function generate(dir: string, kind: 'ConfigMap' | 'Secret', spec: Doc, objects: K8sObject[]): void {
  const name = String(spec.name);
  const options = asDoc(spec.options);
  const data: Record<string, string> = {};
  for (const literal of asList(spec.literals).map(String)) {
    const eq = literal.indexOf('=');
    data[literal.slice(0, eq)] = literal.slice(eq + 1);
  }
  for (const entry of asList(spec.files).map(String)) {
    const [fileKey, file] = entry.includes('=') ? entry.split('=') : [path.basename(entry), entry];
    data[fileKey!] = fs.readFileSync(path.join(dir, file!), 'utf8');
  }
  const encoded =
    kind === 'Secret'
      ? Object.fromEntries(Object.entries(data).map(([k, v]) => [k, Buffer.from(v).toString('base64')]))
      : data;
  const behavior = text(spec.behavior) || 'create';
  if (behavior === 'merge' || behavior === 'replace') {
    const existing = objects.find((o) => o.kind === kind && o.metadata.name === name);
    if (!existing) throw new Error(`${dir}: ${kind} ${name} to ${behavior} does not exist`);
    existing.data = behavior === 'merge' ? { ...asDoc(existing.data), ...encoded } : encoded;
    return;
  }
  if (options.disableNameSuffixHash !== true)
    throw new Error(`${dir}: ${kind} ${name} would get a name hash, which this renderer does not compute`);
  const labels = asDoc(options.labels) as Record<string, string>;
  objects.push({
    apiVersion: 'v1',
    kind,
    metadata: { name, ...(Object.keys(labels).length > 0 ? { labels } : {}) },
    ...(kind === 'Secret' ? { type: 'Opaque' } : {}),
    data: encoded,
  });
}

/** Applies one kustomization (or component) in `dir` on top of `objects` (a component's parent's). */
function build(dir: string, objects: K8sObject[], extraComponents: string[] = []): K8sObject[] {
  const k = readKustomization(dir);
  for (const ref of asList(k.resources).map(String)) {
    const full = path.resolve(dir, ref);
    if (!fs.existsSync(full)) throw new Error(`${dir}: resource ${ref} does not exist`);
    objects.push(...(fs.statSync(full).isDirectory() ? build(full, []) : loadObjects(full)));
  }
  for (const ref of [...asList(k.components).map(String), ...extraComponents]) {
    const full = path.resolve(dir, ref);
    if (!fs.existsSync(full)) throw new Error(`${dir}: component ${ref} does not exist`);
    if (readKustomization(full).kind !== 'Component') throw new Error(`${full} is not a Component`);
    build(full, objects);
  }
  for (const spec of asList(k.configMapGenerator)) generate(dir, 'ConfigMap', asDoc(spec), objects);
  for (const spec of asList(k.secretGenerator)) generate(dir, 'Secret', asDoc(spec), objects);

  for (const raw of asList(k.patches)) {
    const patch = asDoc(raw);
    const ops = yaml.load(String(patch.patch));
    if (!Array.isArray(ops)) throw new Error(`${dir}: only JSON 6902 patches (a list of ops) are supported`);
    const targets = objects.filter((o) => matchesTarget(o, asDoc(patch.target)));
    if (targets.length === 0) throw new Error(`${dir}: a patch matches no object`);
    for (const target of targets) applyJsonPatch(target, ops, dir);
  }
  for (const raw of asList(k.labels)) {
    const spec = asDoc(raw);
    if (spec.includeSelectors === true || spec.includeTemplates === true)
      throw new Error(`${dir}: labels with includeSelectors/includeTemplates are not supported`);
    for (const o of objects)
      o.metadata.labels = { ...o.metadata.labels, ...(asDoc(spec.pairs) as Record<string, string>) };
  }
  for (const raw of asList(k.images)) {
    const image = asDoc(raw);
    const name = String(image.name);
    for (const o of objects) {
      mapField(o, 'image', (current) => {
        const [repo, tag] = current.split(':');
        if (repo !== name) return current;
        return `${text(image.newName) || repo}:${text(image.newTag) || tag || 'latest'}`;
      });
    }
  }
  for (const raw of asList(k.replicas)) {
    const replicas = asDoc(raw);
    const found = objects.filter(
      (o) => o.metadata.name === replicas.name && asDoc(o.spec).replicas !== undefined,
    );
    if (found.length === 0) throw new Error(`${dir}: replicas for ${String(replicas.name)} match nothing`);
    for (const o of found) asDoc(o.spec).replicas = replicas.count;
  }
  if (typeof k.namespace === 'string') {
    for (const o of objects) {
      if (o.kind === 'Namespace') o.metadata.name = k.namespace;
      else if (!CLUSTER_SCOPED.has(o.kind)) o.metadata.namespace = k.namespace;
    }
  }
  return objects;
}

/** The objects `kubectl kustomize <dir>` renders, plus the given components (paths relative to dir). */
export function renderKustomization(dir: string, extraComponents: string[] = []): K8sObject[] {
  return build(dir, [], extraComponents);
}

/** Whether `kubectl kustomize` is here with kustomize v4 or later (components); false without kubectl. */
export function kubectlHasKustomize(): boolean {
  try {
    const out = execFileSync('kubectl', ['version', '--client', '-o', 'json'], {
      encoding: 'utf8',
      timeout: 30_000,
      stdio: 'pipe',
    });
    const version = /^v?(\d+)/.exec(text((JSON.parse(out) as Doc).kustomizeVersion));
    return version !== null && Number(version[1]) >= 4;
  } catch {
    return false;
  }
}

/** What `kubectl kustomize <dir>` renders. */
export function kubectlKustomize(dir: string): K8sObject[] {
  const out = execFileSync('kubectl', ['kustomize', dir], {
    encoding: 'utf8',
    timeout: 60_000,
    stdio: 'pipe',
  });
  return yaml.loadAll(out).filter((d): d is K8sObject => d !== null && typeof d === 'object');
}

/**
 * Objects keyed by kind/namespace/name, sorted, for comparing two renders. foldSpace folds each
 * run of white space in strings to one space: kustomize re-emits a folded block (`>-`) with a
 * more-indented line with one line break more than js-yaml reads, a difference PromQL ignores.
 */
export function byKey(objects: K8sObject[], { foldSpace = false } = {}): Record<string, unknown> {
  const fold = (value: unknown): unknown => {
    if (typeof value === 'string') return foldSpace ? value.replace(/\s+/g, ' ') : value;
    if (Array.isArray(value)) return value.map(fold);
    if (value !== null && typeof value === 'object')
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, fold(v)]));
    return value;
  };
  return Object.fromEntries(
    objects.map((o) => [key(o), fold(o)] as const).sort(([a], [b]) => a.localeCompare(b)),
  );
}

/** A copy of k8s/ in a new temporary folder (for renders of changed or broken files). */
export function copyK8s(root: string, tmpRoot: string): string {
  const dir = fs.mkdtempSync(path.join(tmpRoot, 'sprout-k8s-'));
  fs.cpSync(path.join(root, 'k8s'), path.join(dir, 'k8s'), { recursive: true });
  return path.join(dir, 'k8s');
}
