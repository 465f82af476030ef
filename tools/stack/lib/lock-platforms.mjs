// Every optional platform binary a locked package names must have an entry of its own in
// package-lock.json, or `npm ci` refuses the lock on every machine. npm leaves an entry out when
// the registry it resolved against could not describe that package (a mirror that carries only
// this platform's binaries); the entry is then written from the package's name, which states its
// platform (`@swc/core-darwin-arm64`, `@rollup/rollup-linux-x64-musl`, ...).
// Plain Node ESM with no dependencies: `npm test` runs the check before anything is installed.
import fs from 'node:fs';

const OSES = [
  'darwin',
  'linux',
  'win32',
  'freebsd',
  'openbsd',
  'netbsd',
  'android',
  'openharmony',
  'sunos',
  'aix',
];
const CPUS = ['arm64', 'x64', 'ia32', 'arm', 'ppc64', 's390x', 'riscv64', 'loong64', 'mips64el', 'wasm32'];

/** os, cpu and libc of a platform package, read from its name; null when the name names no platform. */
export function platformOf(name) {
  const tokens = name.split('/').pop().split('-');
  const os = tokens.find((t) => OSES.includes(t));
  const cpu = tokens.find((t) => CPUS.includes(t));
  if (!cpu) return null;
  const entry = {};
  if (os) entry.os = [os];
  entry.cpu = [cpu];
  if (os === 'linux') {
    if (tokens.some((t) => t.startsWith('musl'))) entry.libc = ['musl'];
    else if (tokens.some((t) => t.startsWith('gnu'))) entry.libc = ['glibc'];
  }
  return entry;
}

/** Whether npm finds a dependency of the package at `from`: nested first, then each parent. */
function resolves(packages, from, name) {
  let base = from;
  for (;;) {
    if (packages[base ? `${base}/node_modules/${name}` : `node_modules/${name}`]) return true;
    if (!base) return false;
    const cut = base.lastIndexOf('/node_modules/');
    base = cut === -1 ? '' : base.slice(0, cut);
  }
}

/** The optional dependencies that have no entry: [{ from, name, version, key }]. */
export function missingOptionalEntries(lock) {
  const packages = lock.packages ?? {};
  const missing = [];
  for (const [from, entry] of Object.entries(packages)) {
    for (const [name, range] of Object.entries(entry.optionalDependencies ?? {})) {
      if (resolves(packages, from, name)) continue;
      const key = `node_modules/${name}`;
      if (!missing.some((m) => m.key === key)) missing.push({ from, name, version: range, key });
    }
  }
  return missing;
}

/** Adds the missing entries in place; answers the names it could not place (no platform, loose range). */
export function completeLock(lock) {
  const unplaced = [];
  for (const m of missingOptionalEntries(lock)) {
    const platform = platformOf(m.name);
    if (!platform || !/^\d+\.\d+\.\d+(-[\w.]+)?$/.test(m.version)) {
      unplaced.push(`${m.name}@${m.version} (wanted by ${m.from || 'the root'})`);
      continue;
    }
    const parent = lock.packages[m.from];
    lock.packages[m.key] = {
      version: m.version,
      ...platform,
      ...(parent.dev ? { dev: true } : {}),
      ...(parent.devOptional ? { devOptional: true } : {}),
      optional: true,
    };
  }
  lock.packages = Object.fromEntries(
    Object.entries(lock.packages).sort(([a], [b]) => (a === '' ? -1 : b === '' ? 1 : a.localeCompare(b))),
  );
  return unplaced;
}

export function readLock(file) {
  return JSON.parse(fs.readFileSync(file, 'utf8'));
}
