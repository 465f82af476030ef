// The Dockerfile's base image when it cannot be pulled (no route to Docker Hub): Debian bookworm
// from debootstrap (minbase) with this machine's node and npm in /usr/local, and the user node
// (1000:1000), laid out as the official node:<version>-bookworm-slim image is.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { aptInstall } from './docker-daemon.mjs';
import { StackError, findOnPath, say } from './stack.mjs';

/** The Debian mirror this machine's apt uses (deb822 or one-line sources), else deb.debian.org. */
export function debianMirror() {
  const files = ['/etc/apt/sources.list', '/etc/apt/sources.list.d/debian.sources'];
  for (const file of files) {
    let text = '';
    try {
      text = fs.readFileSync(file, 'utf8');
    } catch {
      continue;
    }
    const deb822 = /^URIs:\s*(\S+\/debian)\/?\s*$/m.exec(text);
    if (deb822) return deb822[1];
    const oneLine = /^deb\s+(?:\[[^\]]*\]\s+)?(\S+\/debian)\/?\s+bookworm\b/m.exec(text);
    if (oneLine) return oneLine[1];
  }
  return 'http://deb.debian.org/debian';
}

/** The npm package folder of the running npm (…/lib/node_modules/npm). */
function npmDir() {
  const cli = findOnPath('npm');
  if (!cli) throw new StackError('npm is not on PATH');
  const dir = path.resolve(path.dirname(fs.realpathSync(cli)), '..');
  if (!fs.existsSync(path.join(dir, 'bin', 'npm-cli.js')))
    throw new StackError(`cannot find npm's package folder from ${cli}`);
  return dir;
}

function run(command, args, what, timeoutMs) {
  const result = spawnSync(command, args, { stdio: ['ignore', 'inherit', 'inherit'], timeout: timeoutMs });
  if (result.status !== 0)
    throw new StackError(`${what} failed (${result.error?.message ?? `exit ${result.status}`}); see above`);
}

/**
 * Builds the base image and tags it `tag` in the daemon of `docker` (a startPrivateDockerd result).
 * The root file system is made under workDir and deleted afterwards.
 */
export async function buildLocalBase({ docker, tag, workDir }) {
  const [major] = process.versions.node.split('.');
  const wanted = /:(\d+)[.-]/.exec(tag)?.[1];
  if (wanted && wanted !== major)
    throw new StackError(
      `the base ${tag} wants Node ${wanted}, and this machine's node is ${process.version}`,
    );
  if (!findOnPath('debootstrap')) aptInstall(['debootstrap'], 'building a local base image');

  const rootfs = path.join(workDir, 'base-rootfs');
  fs.rmSync(rootfs, { recursive: true, force: true });
  fs.mkdirSync(rootfs, { recursive: true });
  try {
    const mirror = debianMirror();
    say(`base image: debootstrap bookworm (minbase) from ${mirror}`);
    run('debootstrap', ['--variant=minbase', 'bookworm', rootfs, mirror], 'debootstrap', 900_000);

    say(`base image: node ${process.version} and npm from this machine into /usr/local`);
    const local = path.join(rootfs, 'usr', 'local');
    fs.mkdirSync(path.join(local, 'bin'), { recursive: true });
    fs.mkdirSync(path.join(local, 'lib', 'node_modules'), { recursive: true });
    fs.copyFileSync(process.execPath, path.join(local, 'bin', 'node'));
    fs.chmodSync(path.join(local, 'bin', 'node'), 0o755);
    fs.cpSync(npmDir(), path.join(local, 'lib', 'node_modules', 'npm'), { recursive: true });
    fs.symlinkSync('../lib/node_modules/npm/bin/npm-cli.js', path.join(local, 'bin', 'npm'));
    fs.symlinkSync('../lib/node_modules/npm/bin/npx-cli.js', path.join(local, 'bin', 'npx'));
    run('groupadd', ['--root', rootfs, '--gid', '1000', 'node'], 'groupadd node', 30_000);
    run(
      'useradd',
      ['--root', rootfs, '--uid', '1000', '--gid', 'node', '--shell', '/bin/bash', '--create-home', 'node'],
      'useradd node',
      30_000,
    );
    // What the slim image leaves out too: package lists and downloaded archives.
    for (const sub of ['var/lib/apt/lists', 'var/cache/apt', 'var/cache/debconf/templates.dat-old']) {
      fs.rmSync(path.join(rootfs, sub), { recursive: true, force: true });
    }
    fs.mkdirSync(path.join(rootfs, 'var/lib/apt/lists/partial'), { recursive: true });

    say(`base image: importing as ${tag}`);
    await new Promise((resolve, reject) => {
      const tar = spawn('tar', ['-C', rootfs, '--numeric-owner', '-c', '.'], {
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      const imp = spawn(
        docker.binary,
        [
          'import',
          '--change',
          'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin',
          '--change',
          `ENV NODE_VERSION=${process.versions.node}`,
          '--change',
          'CMD ["node"]',
          '-',
          tag,
        ],
        { env: docker.env, stdio: ['pipe', 'ignore', 'inherit'] },
      );
      tar.stdout.pipe(imp.stdin);
      const timer = setTimeout(() => {
        tar.kill('SIGKILL');
        imp.kill('SIGKILL');
      }, 600_000);
      const exit = (child) => new Promise((done) => child.once('exit', (code) => done(code)));
      void Promise.all([exit(tar), exit(imp)]).then(([tarCode, importCode]) => {
        clearTimeout(timer);
        if (tarCode === 0 && importCode === 0) resolve();
        else reject(new StackError(`docker import failed (tar exit ${tarCode}, import exit ${importCode})`));
      });
    });
  } finally {
    fs.rmSync(rootfs, { recursive: true, force: true });
  }
}
