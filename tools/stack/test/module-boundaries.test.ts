// The dependency rules lint themselves: imports that break the allowed graph between projects fail
// the repository's real ESLint config, and allowed ones pass. ESLint runs in a child process, since
// it loads its flat config as ES modules, which Jest's module system does not run.
import { spawnSync } from 'node:child_process';
import path from 'node:path';

const root = path.resolve(__dirname, '../../..');

interface Case {
  /** An existing file of the project under test: ESLint reads it as the given text instead. */
  file: string;
  text: string;
}

const lint = `
import { ESLint } from 'eslint';
import { createProjectGraphAsync } from '@nx/devkit';
// The rule reads the cached project graph (tags included); refresh it first.
await createProjectGraphAsync({ exitOnError: false });
const cases = JSON.parse(process.argv[1]);
// Only this rule runs, so the files need no type information: the project service stays off.
const eslint = new ESLint({
  cwd: process.cwd(),
  ruleFilter: ({ ruleId }) => ruleId === '@nx/enforce-module-boundaries',
  overrideConfig: { languageOptions: { parserOptions: { projectService: false } } },
});
const answers = [];
for (const c of cases) {
  const [result] = await eslint.lintText(c.text, { filePath: c.file });
  answers.push(result.messages.filter((m) => m.ruleId === '@nx/enforce-module-boundaries').map((m) => m.message));
}
console.log(JSON.stringify(answers));
`;

function boundaryMessages(cases: Case[]): string[][] {
  const run = spawnSync(process.execPath, ['--input-type=module', '-e', lint, JSON.stringify(cases)], {
    cwd: root,
    encoding: 'utf8',
    env: { ...process.env, NX_DAEMON: 'false' },
    maxBuffer: 16 * 1024 * 1024,
  });
  if (run.status !== 0) throw new Error(`eslint failed (${run.status}): ${run.stderr}`);
  const lastLine = run.stdout.trim().split('\n').pop() ?? '[]';
  return JSON.parse(lastLine) as string[][];
}

const use = (...specifiers: string[]) =>
  specifiers
    .map((s, i) => `import * as target${i} from '${s}';\nexport const used${i} = target${i};\n`)
    .join('');

const tagged = (tag: string) => new RegExp(`tagged with "${tag}" (can only|cannot) depend on`);
const byPath = /cannot be imported by a relative or absolute path/;

// [what happens, the importing file, what it imports, the message expected]
const broken: Array<[string, string, string, RegExp]> = [
  ['a web app imports a server lib', 'web-admin/src/main.tsx', '@sprout/domain', tagged('type:app-web')],
  ['the public site imports platform', 'web-public/src/main.tsx', '@sprout/platform', tagged('type:app-web')],
  ['ui imports gardening', 'libs/ui/src/index.ts', '@sprout/gardening', tagged('layer:ui')],
  [
    'a service imports another service',
    'services/monitor/src/main.ts',
    '@sprout/api-gateway',
    tagged('type:service'),
  ],
  ['a service imports another by path', 'services/monitor/src/main.ts', '../../api-gateway/src/app', byPath],
  [
    'a service imports the test harness in its sources',
    'services/monitor/src/main.ts',
    '@sprout/testing',
    tagged('type:service'),
  ],
  ['contracts imports llm', 'libs/contracts/src/index.ts', '@sprout/llm', tagged('layer:contracts')],
  ['gardening imports platform', 'libs/gardening/src/index.ts', '@sprout/platform', tagged('layer:core')],
  [
    'domain imports platform, which imports domain',
    'libs/domain/src/index.ts',
    '@sprout/platform',
    /Circular dependency/,
  ],
  ['platform imports testing', 'libs/platform/src/index.ts', '@sprout/testing', tagged('layer:platform')],
];

// [what happens, the importing file, what it imports]
const allowed: Array<[string, string, ...string[]]> = [
  ['a web app imports ui and contracts', 'web-admin/src/main.tsx', '@sprout/ui', '@sprout/contracts'],
  ['a service imports platform', 'services/monitor/src/main.ts', '@sprout/platform'],
  ['a service test imports the test harness', 'services/monitor/test/service.test.ts', '@sprout/testing'],
  ['platform imports domain', 'libs/platform/src/index.ts', '@sprout/domain'],
  ['e2e runs a service from its sources', 'e2e/src/stack.ts', '../../services/api-gateway/src/app'],
];

describe('the dependency rules between projects', () => {
  let answers: string[][] = [];
  beforeAll(() => {
    answers = boundaryMessages([
      ...broken.map(([, file, specifier]) => ({ file, text: use(specifier) })),
      ...allowed.map(([, file, ...specifiers]) => ({ file, text: use(...specifiers) })),
    ]);
  }, 300_000);

  it.each(broken.map(([name, , , expected], i) => [name, i, expected] as const))(
    'refuses it when %s',
    (_name, i, expected) => {
      expect(answers[i]).toEqual([expect.stringMatching(expected)]);
    },
  );

  it.each(allowed.map(([name], i) => [name, broken.length + i] as const))('allows it when %s', (_name, i) => {
    expect(answers[i]).toEqual([]);
  });
});
