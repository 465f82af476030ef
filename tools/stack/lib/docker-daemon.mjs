// A private Docker daemon for `npm run verify:image`: its own data-root, exec-root and socket under
// one folder, no bridge and no iptables rules (containers use the host's network), so it never
// touches a system daemon, another checkout's daemon or the machine's firewall.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { StackError, findOnPath, say } from './stack.mjs';

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const isRoot = () => typeof process.getuid === 'function' && process.getuid() === 0;

/** Installs Debian packages (root on Debian only); `what` says why, for the error message. */
export function aptInstall(packages, what) {
  if (!isRoot() || !fs.existsSync('/etc/debian_version')) {
    throw new StackError(
      `${what} needs ${packages.join(', ')}, which is not installed. Install it (Debian/Ubuntu: ` +
        `sudo apt-get install ${packages.join(' ')}) and rerun.`,
    );
  }
  say(`installing ${packages.join(', ')} (apt-get) for ${what}`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  for (const args of [['update'], ['install', '-y', '--no-install-recommends', ...packages]]) {
    const result = spawnSync('apt-get', args, { stdio: 'inherit', env, timeout: 600_000 });
    if (result.status !== 0)
      throw new StackError(
        `apt-get ${args.join(' ')} failed; install ${packages.join(' ')} by hand and rerun`,
      );
  }
}

/**
 * dockerd and the docker client that goes with it (the one beside dockerd first: a newer client on
 * PATH may lack the BuildKit support the daemon has). Installs Debian's docker.io when missing.
 */
export function ensureDocker() {
  let dockerd = findOnPath('dockerd');
  if (!dockerd) {
    aptInstall(['docker.io'], 'running the image');
    dockerd = findOnPath('dockerd');
    if (!dockerd) throw new StackError('docker.io was installed but dockerd is not on PATH');
  }
  // Debian puts dockerd in /usr/sbin and its client in /usr/bin.
  const candidates = [path.join(path.dirname(dockerd), 'docker'), '/usr/bin/docker'];
  const docker = candidates.find((c) => fs.existsSync(c)) ?? findOnPath('docker');
  if (!docker) throw new StackError(`found ${dockerd} but no docker client; install docker.io`);
  return { dockerd, docker };
}

/** Mount points at or below dir, deepest first (what a killed daemon may leave behind). */
function mountsUnder(dir) {
  let lines = [];
  try {
    lines = fs.readFileSync('/proc/self/mounts', 'utf8').split('\n');
  } catch {
    return [];
  }
  return lines
    .map((line) => line.split(' ')[1]?.replace(/\\040/g, ' '))
    .filter((point) => point && (point === dir || point.startsWith(`${dir}/`)))
    .sort((a, b) => b.length - a.length);
}

/**
 * Starts dockerd with everything under `dir`. Returns { docker(args, options), socket, stop() };
 * stop() stops the daemon (SIGTERM, then SIGKILL), unmounts what it left and deletes `dir`.
 */
export async function startPrivateDockerd({ dockerd, docker, dir, readyTimeoutMs = 60_000 }) {
  if (!isRoot()) throw new StackError('a private dockerd needs root; run npm run verify:image as root');
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const socket = path.join(dir, 'docker.sock');
  const logFile = path.join(dir, 'dockerd.log');
  const log = fs.openSync(logFile, 'a');
  const args = [
    `--data-root=${path.join(dir, 'data')}`,
    `--exec-root=${path.join(dir, 'run')}`,
    `--pidfile=${path.join(dir, 'dockerd.pid')}`,
    `--host=unix://${socket}`,
    '--bridge=none',
    '--iptables=false',
    '--ip-forward=false',
    '--ip-masq=false',
    '--userland-proxy=false',
  ];
  say(`dockerd: starting a private daemon (${socket})`);
  const child = spawn(dockerd, args, { stdio: ['ignore', log, log], detached: false });
  fs.closeSync(log);
  let exited = null;
  child.once('exit', (code, signal) => {
    exited = { code, signal };
  });
  const host = `unix://${socket}`;
  const env = { ...process.env, DOCKER_HOST: host, DOCKER_CONFIG: path.join(dir, 'client') };
  delete env.DOCKER_CONTEXT;

  /** Runs the client against this daemon; returns { status, stdout, stderr }. */
  const run = (cmdArgs, { timeoutMs = 120_000, input, inherit = false, extraEnv = {} } = {}) => {
    const result = spawnSync(docker, cmdArgs, {
      env: { ...env, ...extraEnv },
      input,
      encoding: 'utf8',
      stdio: inherit ? ['ignore', 'inherit', 'inherit'] : ['pipe', 'pipe', 'pipe'],
      timeout: timeoutMs,
      maxBuffer: 64 * 1024 * 1024,
    });
    if (result.error?.code === 'ETIMEDOUT')
      throw new StackError(`docker ${cmdArgs[0]} took over ${Math.round(timeoutMs / 1000)} s; stopped it`);
    return { status: result.status ?? 1, stdout: result.stdout ?? '', stderr: result.stderr ?? '' };
  };
  const tail = () => fs.readFileSync(logFile, 'utf8').split('\n').slice(-15).join('\n');

  const stop = async () => {
    if (!exited) {
      say('dockerd: stopping');
      child.kill('SIGTERM');
      for (let waited = 0; !exited && waited < 30_000; waited += 250) await sleep(250);
      if (!exited) {
        child.kill('SIGKILL');
        for (let waited = 0; !exited && waited < 5_000; waited += 250) await sleep(250);
      }
    }
    // The managed containerd is dockerd's child; a SIGKILLed dockerd can leave it behind.
    const containerdPid = path.join(dir, 'run', 'containerd', 'containerd.pid');
    if (fs.existsSync(containerdPid)) {
      const pid = Number.parseInt(fs.readFileSync(containerdPid, 'utf8'), 10);
      if (Number.isInteger(pid) && pid > 0) {
        try {
          process.kill(pid, 'SIGTERM');
        } catch {
          // already gone
        }
      }
    }
    for (const point of mountsUnder(dir)) spawnSync('umount', ['-l', point], { stdio: 'ignore' });
    // Minutes on a loaded machine: the image layers and build caches are many small files.
    say(`dockerd: deleting ${dir}`);
    fs.rmSync(dir, { recursive: true, force: true, maxRetries: 3 });
  };

  const deadline = Date.now() + readyTimeoutMs;
  for (;;) {
    if (exited) {
      const why = tail();
      await stop();
      throw new StackError(`dockerd exited (${exited.code ?? exited.signal}) while starting:\n${why}`);
    }
    if (
      fs.existsSync(socket) &&
      run(['version', '--format', '{{.Server.Version}}'], { timeoutMs: 10_000 }).status === 0
    )
      break;
    if (Date.now() > deadline) {
      const why = tail();
      await stop();
      throw new StackError(`dockerd did not answer within ${readyTimeoutMs / 1000} s:\n${why}`);
    }
    await sleep(500);
  }
  const version = run(['version', '--format', '{{.Server.Version}}']).stdout.trim();
  say(`dockerd ${version}: ready`);
  return { run, binary: docker, socket, version, env, stop, logFile };
}
