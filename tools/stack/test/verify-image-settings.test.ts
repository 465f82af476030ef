import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { SERVICES } from './support/services';

// verify:image runs each container with the settings its k8s manifest gives it
// (tools/stack/lib/k8s-settings.mjs, plain Node ESM): these tests run that module as the script
// does, in a child process, and read back what it returns.

const ROOT = path.resolve(__dirname, '../../..');
const LIB = path.join(ROOT, 'tools/stack/lib/k8s-settings.mjs');

function evaluate<T>(body: string): Promise<T> {
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        `import * as k8s from '${LIB}';\nconst result = await (async () => { ${body} })();\n` +
          `process.stdout.write(JSON.stringify(result));`,
      ],
      { timeout: 60_000 },
      (error, stdout, stderr) =>
        error ? reject(new Error(`${error.message}\n${stderr}`)) : resolve(JSON.parse(stdout) as T),
    );
  });
}

interface Workload {
  name: string;
  kind: string;
  command: string[];
  env: Record<string, string>;
  memory: string;
  memoryBytes: number;
  user: string;
  readOnly: boolean;
  capDrop: string[];
  noNewPrivileges: boolean;
  tmpfs: string[];
}

describe('the k8s settings verify:image runs containers with', () => {
  it('are read from k8s/ for migrate, the six services, the edge and the SMS sandbox', async () => {
    const workloads = await evaluate<Workload[]>('return k8s.workloads();');
    expect(workloads.map((w) => w.name)).toEqual(['migrate', ...SERVICES, 'edge', 'fake-twilio']);
    for (const w of workloads) {
      expect([w.name, w.user, w.readOnly, w.capDrop, w.noNewPrivileges]).toEqual([
        w.name,
        '1000:1000',
        true,
        ['ALL'],
        true,
      ]);
    }
    const byName = Object.fromEntries(workloads.map((w) => [w.name, w]));
    expect(byName['ai-responder']).toMatchObject({
      command: ['node', 'services/ai-responder/dist/main.js'],
      memory: '512Mi',
      memoryBytes: 512 * 1024 * 1024,
      tmpfs: ['/tmp'],
      env: { PORT: '3002' },
    });
    expect(byName.edge?.env.SMS_GATEWAY_URL).toBe('http://sms-gateway:3001');
    expect(byName.migrate?.tmpfs).toEqual([]);
  });

  it('become docker run flags: user, memory without swap, read-only, no capabilities, tmpfs', async () => {
    const flags = await evaluate<string[]>(
      "return k8s.securityFlags(k8s.workloads().find((w) => w.name === 'edge'));",
    );
    expect(flags).toEqual([
      '--user',
      '1000:1000',
      '--memory',
      String(128 * 1024 * 1024),
      '--memory-swap',
      String(128 * 1024 * 1024),
      '--read-only',
      '--cap-drop',
      'ALL',
      '--security-opt',
      'no-new-privileges',
      '--tmpfs',
      '/tmp:rw,nosuid,nodev,size=64m',
      // The edge's webhook spool, an emptyDir in k8s.
      '--tmpfs',
      '/var/spool/sprout-edge:rw,nosuid,nodev,size=64m',
    ]);
  });

  it('read Kubernetes memory quantities and refuse what they cannot read', async () => {
    expect(
      await evaluate<number[]>("return ['128Mi', '1Gi', '300M', '1.5Gi', '4096'].map(k8s.memoryBytes);"),
    ).toEqual([128 * 1024 ** 2, 1024 ** 3, 300e6, 1.5 * 1024 ** 3, 4096]);
    await expect(evaluate("return k8s.memoryBytes('lots');")).rejects.toThrow(
      /cannot read the memory quantity lots/,
    );
  });

  it('fail on a workload without a memory limit or with a volume other than emptyDir', async () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'sprout-k8s-settings-'));
    try {
      fs.cpSync(path.join(ROOT, 'k8s'), path.join(root, 'k8s'), { recursive: true });
      const file = path.join(root, 'k8s/base/monitor.yaml');
      const original = fs.readFileSync(file, 'utf8');
      fs.writeFileSync(file, original.replace(/\n {12}limits:\n {14}memory: \S+/, ''));
      await expect(evaluate(`return k8s.workloads(${JSON.stringify(root)});`)).rejects.toThrow(
        /k8s\/base\/monitor.yaml \(monitor\): no memory limit/,
      );
      fs.writeFileSync(file, original.replace('emptyDir: {}', 'hostPath: { path: /var/tmp }'));
      await expect(evaluate(`return k8s.workloads(${JSON.stringify(root)});`)).rejects.toThrow(
        /only emptyDir volumes can be mounted here \(tmp\)/,
      );
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  });
});
