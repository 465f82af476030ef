import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import ts from 'typescript';
import { ScaledObject } from '@kubernetes-models/keda/keda.sh/v1alpha1/ScaledObject';
import { TriggerAuthentication } from '@kubernetes-models/keda/keda.sh/v1alpha1/TriggerAuthentication';
import { PodMonitor } from '@kubernetes-models/prometheus-operator/monitoring.coreos.com/v1/PodMonitor';
import { PrometheusRule } from '@kubernetes-models/prometheus-operator/monitoring.coreos.com/v1/PrometheusRule';
import { Deployment } from 'kubernetes-models/apps/v1/Deployment';
import { Job } from 'kubernetes-models/batch/v1/Job';
import { Ingress } from 'kubernetes-models/networking.k8s.io/v1/Ingress';
import { PodDisruptionBudget } from 'kubernetes-models/policy/v1/PodDisruptionBudget';
import { ConfigMap } from 'kubernetes-models/v1/ConfigMap';
import { Namespace } from 'kubernetes-models/v1/Namespace';
import { Secret } from 'kubernetes-models/v1/Secret';
import { Service } from 'kubernetes-models/v1/Service';
import type { K8sObject } from './kustomize';

// Validates rendered Kubernetes objects against the models of kubernetes-models and its KEDA and
// Prometheus Operator packages, two ways: their JSON-schema validators (types, required fields,
// enums, formats), and TypeScript's excess-property check of each object against the model's
// interface, which finds the unknown fields (a misspelt `pathh`) that the API server would drop.

interface Model {
  /** The module that exports the model class and its I<Kind> interface. */
  module: string;
  kind: string;
  Class: new (data: never) => { validate(): void };
}

const model = (module: string, Class: Model['Class']): Model => ({
  module,
  kind: module.split('/').at(-1)!,
  Class,
});

/** The kinds k8s/ renders, by apiVersion/kind: a new kind needs its model here. */
const MODELS = new Map(
  [
    model('kubernetes-models/v1/Namespace', Namespace),
    model('kubernetes-models/v1/ConfigMap', ConfigMap),
    model('kubernetes-models/v1/Secret', Secret),
    model('kubernetes-models/v1/Service', Service),
    model('kubernetes-models/apps/v1/Deployment', Deployment),
    model('kubernetes-models/batch/v1/Job', Job),
    model('kubernetes-models/networking.k8s.io/v1/Ingress', Ingress),
    model('kubernetes-models/policy/v1/PodDisruptionBudget', PodDisruptionBudget),
    model('@kubernetes-models/keda/keda.sh/v1alpha1/ScaledObject', ScaledObject),
    model('@kubernetes-models/keda/keda.sh/v1alpha1/TriggerAuthentication', TriggerAuthentication),
    model('@kubernetes-models/prometheus-operator/monitoring.coreos.com/v1/PodMonitor', PodMonitor),
    model('@kubernetes-models/prometheus-operator/monitoring.coreos.com/v1/PrometheusRule', PrometheusRule),
  ].map((m) => [m.module.replace(/^(@kubernetes-models\/[^/]+|kubernetes-models)\//, ''), m]),
);

/** The JSON-schema validators' complaints about one object ([] when it is valid). */
function schemaErrors(object: K8sObject, { Class }: Model): string[] {
  try {
    new Class(object as never).validate();
    return [];
  } catch (error) {
    return [(error as Error).message];
  }
}

const label = (o: K8sObject): string => `${o.kind} ${o.metadata.namespace ?? ''}/${o.metadata.name}`;

/**
 * TypeScript's diagnostics for `const x: I<Kind> = <object>` over every object, keyed by object.
 * One program for all objects keeps it to a few seconds.
 */
function typeErrors(objects: { object: K8sObject; model: Model }[]): Map<K8sObject, string[]> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sprout-k8s-types-'));
  const file = path.join(dir, 'objects.ts');
  const starts: { line: number; object: K8sObject }[] = [];
  let text = objects
    .map(({ model }, i) => `import type { I${model.kind} as T${i} } from '${model.module}';\n`)
    .join('');
  let line = objects.length;
  objects.forEach(({ object }, i) => {
    const statement = `export const o${i}: T${i} = ${JSON.stringify(object, null, 1)};\n`;
    starts.push({ line, object });
    text += statement;
    line += statement.split('\n').length - 1;
  });
  fs.writeFileSync(file, text);
  try {
    const program = ts.createProgram([file], {
      strict: true,
      noEmit: true,
      skipLibCheck: true,
      types: [],
      module: ts.ModuleKind.CommonJS,
      moduleResolution: ts.ModuleResolutionKind.Node10,
      target: ts.ScriptTarget.ES2022,
      baseUrl: path.resolve(__dirname, '../../../..'),
      paths: { '*': [path.resolve(__dirname, '../../../../node_modules/*')] },
    });
    const found = new Map<K8sObject, string[]>();
    for (const d of ts.getPreEmitDiagnostics(program)) {
      const message = ts.flattenDiagnosticMessageText(d.messageText, '\n');
      if (!d.file || d.start === undefined) throw new Error(`TypeScript: ${message}`);
      const { line } = d.file.getLineAndCharacterOfPosition(d.start);
      const owner = [...starts].reverse().find((s) => s.line <= line);
      if (!owner) throw new Error(`TypeScript (imports): ${message}`);
      const lineText = d.file.text.split('\n')[line]?.trim() ?? '';
      found.set(owner.object, [...(found.get(owner.object) ?? []), `${message} (at ${lineText})`]);
    }
    return found;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** Every problem the schemas find, one line each: "<Kind> <ns>/<name>: <problem>". */
export function validateObjects(objects: K8sObject[]): string[] {
  const problems: string[] = [];
  const modelled: { object: K8sObject; model: Model }[] = [];
  for (const object of objects) {
    const model = MODELS.get(`${object.apiVersion}/${object.kind}`);
    if (!model) {
      problems.push(`${label(object)}: no schema for ${object.apiVersion} ${object.kind}`);
      continue;
    }
    modelled.push({ object, model });
    for (const error of schemaErrors(object, model)) problems.push(`${label(object)}: ${error}`);
  }
  for (const [object, errors] of typeErrors(modelled)) {
    for (const error of errors) problems.push(`${label(object)}: ${error}`);
  }
  return problems;
}
