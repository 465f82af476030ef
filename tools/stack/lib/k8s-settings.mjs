// What Kubernetes would give each Sprout container, read from k8s/ (the base, plus the dev overlay's
// SMS sandbox), as `docker run` flags: command, env values, memory limit, user, read-only root
// file system, dropped capabilities, no privilege escalation and the emptyDir mounts (tmpfs).
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { ROOT, StackError } from './stack.mjs';

const yaml = createRequire(path.join(ROOT, 'tools', 'package.json'))('js-yaml');

const FILES = [
  'k8s/base/migrate-job.yaml',
  'k8s/base/api-gateway.yaml',
  'k8s/base/sms-gateway.yaml',
  'k8s/base/ai-responder.yaml',
  'k8s/base/survey-scheduler.yaml',
  'k8s/base/image-processor.yaml',
  'k8s/base/monitor.yaml',
  'k8s/base/edge.yaml',
  'k8s/overlays/dev/fake-twilio.yaml',
];

/** Kubernetes memory quantity ("512Mi", "1Gi", "300M") in bytes. */
export function memoryBytes(quantity) {
  const match = /^(\d+(?:\.\d+)?)(Ki|Mi|Gi|K|M|G)?$/.exec(String(quantity));
  if (!match) throw new StackError(`cannot read the memory quantity ${quantity}`);
  const unit = { Ki: 1024, Mi: 1024 ** 2, Gi: 1024 ** 3, K: 1e3, M: 1e6, G: 1e9 }[match[2] ?? ''] ?? 1;
  return Math.round(Number(match[1]) * unit);
}

/** The base ConfigMap sprout-config's data. */
export function baseConfig(root = ROOT) {
  const doc = yaml.load(fs.readFileSync(path.join(root, 'k8s/base/config.yaml'), 'utf8'));
  if (doc?.kind !== 'ConfigMap') throw new StackError('k8s/base/config.yaml is not a ConfigMap');
  return { ...doc.data };
}

/**
 * One entry per workload: { name, kind, command, env, memory, user, readOnly, capDrop,
 * noNewPrivileges, tmpfs }. A setting Kubernetes has and this cannot carry over is an error, so a
 * change in k8s/ never silently escapes the check.
 */
export function workloads(root = ROOT) {
  const out = [];
  for (const file of FILES) {
    for (const doc of yaml.loadAll(fs.readFileSync(path.join(root, file), 'utf8'))) {
      if (doc?.kind !== 'Deployment' && doc?.kind !== 'Job') continue;
      const pod = doc.spec.template.spec;
      const [container, ...others] = pod.containers;
      if (others.length > 0) throw new StackError(`${file}: one container per pod expected`);
      const where = `${file} (${container.name})`;
      const env = {};
      for (const entry of container.env ?? []) {
        // Secret references are filled in by the caller (its own secrets).
        if (typeof entry.value === 'string') env[entry.name] = entry.value;
      }
      const security = container.securityContext ?? {};
      const memory = container.resources?.limits?.memory;
      if (!memory) throw new StackError(`${where}: no memory limit`);
      const user = pod.securityContext?.runAsUser ?? security.runAsUser;
      const group = pod.securityContext?.runAsGroup ?? security.runAsGroup ?? user;
      if (user === undefined) throw new StackError(`${where}: no runAsUser`);
      const volumes = new Map((pod.volumes ?? []).map((v) => [v.name, v]));
      const tmpfs = (container.volumeMounts ?? []).map((mount) => {
        if (!volumes.get(mount.name)?.emptyDir)
          throw new StackError(`${where}: only emptyDir volumes can be mounted here (${mount.name})`);
        return mount.mountPath;
      });
      out.push({
        name: doc.metadata.name,
        kind: doc.kind,
        command: container.command,
        env,
        envFromConfig: (container.envFrom ?? []).some((e) => e.configMapRef?.name === 'sprout-config'),
        memory,
        memoryBytes: memoryBytes(memory),
        user: `${user}:${group}`,
        readOnly: security.readOnlyRootFilesystem === true,
        capDrop: security.capabilities?.drop ?? [],
        noNewPrivileges: security.allowPrivilegeEscalation === false,
        tmpfs,
        port: container.ports?.[0]?.containerPort ?? null,
      });
    }
  }
  return out;
}

/** The `docker run` flags that apply a workload's security settings and limits. */
export function securityFlags(workload) {
  const flags = ['--user', workload.user, '--memory', String(workload.memoryBytes)];
  // No swap beyond the limit, as in Kubernetes.
  flags.push('--memory-swap', String(workload.memoryBytes));
  if (workload.readOnly) flags.push('--read-only');
  for (const cap of workload.capDrop) flags.push('--cap-drop', cap);
  if (workload.noNewPrivileges) flags.push('--security-opt', 'no-new-privileges');
  for (const mount of workload.tmpfs) flags.push('--tmpfs', `${mount}:rw,nosuid,nodev,size=64m`);
  return flags;
}
