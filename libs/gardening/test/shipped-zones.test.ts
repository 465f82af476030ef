import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { adviseOffline, configureZoneTable } from '@sprout/gardening';

const PACKAGE_DIR = path.resolve(__dirname, '..');
const REPO_ROOT = path.resolve(PACKAGE_DIR, '..', '..');
const GARLIC = 'When should I plant garlic in 97201?';
// Portland, OR 97201 is zone 8b, its dates moved by its own averages: first fall frost ~Nov 15.
const ZONE_8B_GARLIC = /zone 8b .*Nov 15/;
const SEPTEMBER = new Date('2026-09-10T12:00:00Z');

afterEach(() => configureZoneTable(undefined));

describe('the zone table ships with the package', () => {
  it('gives zone dates from a built copy of the package alone, with nothing beside it', () => {
    // The package built as services use it (dist/ next to data/), in a folder outside the repository
    // with nothing beside it, run from there with no HARDINESS_ZONES_PATH.
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fresh-clone-'));
    try {
      const pkg = path.join(dir, 'libs', 'gardening');
      execFileSync(
        path.join(REPO_ROOT, 'node_modules', '.bin', 'swc'),
        ['src', '-d', path.join(pkg, 'dist'), '--strip-leading-paths', '--config-file', '../../.swcrc'],
        { cwd: PACKAGE_DIR, stdio: 'pipe' },
      );
      fs.cpSync(path.join(PACKAGE_DIR, 'data'), path.join(pkg, 'data'), { recursive: true });
      fs.symlinkSync(path.join(REPO_ROOT, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
      expect(fs.existsSync(path.join(dir, '..', 'shared'))).toBe(false);
      const env = { ...process.env };
      delete env.HARDINESS_ZONES_PATH;
      const script = `
        const g = require(${JSON.stringify(path.join(pkg, 'dist', 'index.js'))});
        const advice = g.adviseOffline({ question: ${JSON.stringify(GARLIC)}, now: new Date(${JSON.stringify(SEPTEMBER.toISOString())}) });
        process.stdout.write(JSON.stringify({ path: g.zoneTablePath(), zone: g.hardinessZoneForZip('97201'), answer: advice.answer }));`;
      const out = JSON.parse(
        execFileSync(process.execPath, ['-e', script], { cwd: dir, env }).toString(),
      ) as {
        path: string;
        zone: unknown;
        answer: string;
      };
      expect(out.path).toBe(path.join(pkg, 'data', 'hardiness-zones-2023.txt'));
      expect(out.zone).toEqual({ zone: '8b', trange: '15 to 20', source: 'table' });
      expect(out.answer).toMatch(ZONE_8B_GARLIC);
      expect(out.answer).not.toMatch(/\bZIP\b/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('a reply never asks for a ZIP the user has just given', () => {
  it('takes the ZIP from the question when none is known yet', () => {
    const advice = adviseOffline({ question: GARLIC, now: SEPTEMBER });
    expect(advice.answer).toMatch(ZONE_8B_GARLIC);
    expect(advice.answer).not.toMatch(/text your zip/i);
  });

  it('asks for a zone instead when the ZIP (in the profile or the message) has no known zone', () => {
    configureZoneTable(null);
    for (const advice of [
      adviseOffline({ question: GARLIC, now: SEPTEMBER }),
      adviseOffline({ question: 'When should I plant garlic?', zipCode: '97201', now: SEPTEMBER }),
    ]) {
      expect(advice.answer).not.toMatch(/\bZIP\b/);
      expect(advice.answer).toMatch(/Text your USDA zone \(e\.g\. ZONE 7b\)/);
    }
    const general = adviseOffline({ question: 'What can I plant now?', zipCode: '97201', now: SEPTEMBER });
    expect(general.answer).not.toMatch(/\bZIP\b/);
  });

  it('still asks for a ZIP when none was given', () => {
    configureZoneTable(null);
    expect(adviseOffline({ question: 'When should I plant garlic?', now: SEPTEMBER }).answer).toMatch(
      /Text your ZIP \(e\.g\. ZIP 98101\)/,
    );
  });
});
