import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';
import { type Rule, RuleTester } from 'eslint';
import tseslint from 'typescript-eslint';

// The rule is CommonJS because eslint.config.mjs loads it as it is, without a build.
const rule = createRequire(__filename)('../eslint-rules/no-sql-outside-domain.cjs') as Rule.RuleModule;

const root = path.resolve(__dirname, '../../..');

describe('no-sql-outside-domain', () => {
  // RuleTester declares its own describe and it blocks.
  new RuleTester({ languageOptions: { parser: tseslint.parser } }).run('no-sql-outside-domain', rule, {
    valid: [
      "const label = 'Select a model from the list';",
      "const hint = 'please select one from the list, or update it to set a name';",
      'const ids = rows.map((r) => r.id).find((id) => id === wanted);',
      'cache.delete(key); seen.update?.(1); request.query;',
      'await this.dataSource.transaction(async (manager) => usersPage(manager, 1));',
      'const text = `Update the settings of ${name}`;',
      'await recordConsentEvent(this.dataSource, event);',
    ],
    invalid: [
      { code: "await ds.query('SELECT 1 FROM users WHERE id = $1', [id]);", errors: 2 },
      { code: 'const sql = `SELECT id FROM ${table} WHERE x = $1`;', errors: [{ messageId: 'sqlText' }] },
      {
        code: "const sql = 'insert into users (phone_number) values ($1)';",
        errors: [{ messageId: 'sqlText' }],
      },
      { code: 'const sql = `UPDATE "users" SET "name" = $1`;', errors: [{ messageId: 'sqlText' }] },
      { code: "const sql = 'DELETE FROM admin_sessions';", errors: [{ messageId: 'sqlText' }] },
      {
        code: 'const sql = `WITH page AS MATERIALIZED (${inner}) SELECT 1`;',
        errors: [{ messageId: 'sqlText' }],
      },
      { code: 'this.dataSource.createQueryBuilder(User, "u");', errors: [{ messageId: 'sqlCall' }] },
      { code: 'await queryRunner.query(text);', errors: [{ messageId: 'sqlCall' }] },
      { code: 'this.dataSource.getRepository(User).findOneBy({ id });', errors: 2 },
      { code: 'await manager.save(user);', errors: [{ messageId: 'repository' }] },
      {
        code: 'await this.dataSource.manager.findOneBy(User, { id });',
        errors: [{ messageId: 'repository' }],
      },
      { code: 'await this.userRepository.update({ id }, { name });', errors: [{ messageId: 'repository' }] },
      {
        code: 'class S { constructor(@InjectRepository(User) r) {} }',
        errors: [{ messageId: 'repository' }],
      },
    ],
  });

  // The repository's own configuration, in a child process: eslint.config.mjs is an ES module,
  // which Jest's CommonJS runtime cannot import.
  const CHECK = `
    import { ESLint } from 'eslint';
    import tseslint from 'typescript-eslint';
    const [files, code] = JSON.parse(process.argv[1]);
    const full = new ESLint();
    // Only this rule, on the real configuration's file scoping (no type-aware parsing needed).
    const plain = new ESLint({
      overrideConfig: { languageOptions: { parser: tseslint.parser, parserOptions: { projectService: false } } },
      ruleFilter: ({ ruleId }) => ruleId === 'sprout/no-sql-outside-domain',
    });
    const out = {};
    for (const file of files) {
      const setting = (await full.calculateConfigForFile(file)).rules?.['sprout/no-sql-outside-domain'];
      const [result] = await plain.lintText(code, { filePath: file });
      out[file] = { severity: Array.isArray(setting) ? setting[0] : setting, rules: result.messages.map((m) => m.ruleId ?? m.message) };
    }
    console.log(JSON.stringify(out));
  `;
  const code = [
    "import type { DataSource } from 'typeorm';",
    'export const names = async (ds: DataSource): Promise<unknown> =>',
    "  ds.query('SELECT name FROM users WHERE id = $1', ['x']);",
    '',
  ].join('\n');
  const guarded = [
    'services/api-gateway/src/users/fixture-sql.ts',
    'services/api-gateway/src/auth/fixture-sql.ts',
    'libs/platform/src/health/fixture-sql.ts',
  ];
  const free = [
    'libs/domain/src/users/fixture-sql.ts',
    'libs/testing/src/fixture-sql.ts',
    'services/api-gateway/test/fixture-sql.test.ts',
  ];
  let results: Record<string, { severity: unknown; rules: string[] }> = {};
  beforeAll(() => {
    const stdout = execFileSync(
      process.execPath,
      ['--input-type=module', '-e', CHECK, JSON.stringify([[...guarded, ...free], code])],
      { cwd: root, encoding: 'utf8', timeout: 120_000 },
    );
    results = JSON.parse(stdout) as typeof results;
  }, 150_000);

  it('fails a service or library file that holds SQL', () => {
    for (const file of guarded)
      expect([file, results[file]]).toEqual([
        file,
        { severity: 2, rules: ['sprout/no-sql-outside-domain', 'sprout/no-sql-outside-domain'] },
      ]);
  });

  it('passes the same code in libs/domain, libs/testing and tests', () => {
    for (const file of free)
      expect([file, results[file]]).toEqual([file, { severity: undefined, rules: [] }]);
  });
});
