// Type-aware lint for every package's TypeScript, plain lint for its .js/.mjs/.cjs scripts, and the
// import boundaries between projects.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import noSqlOutsideDomain from './tools/stack/eslint-rules/no-sql-outside-domain.cjs';
import { moduleBoundaries } from './eslint.boundaries.mjs';

export default tseslint.config(
  {
    ignores: ['**/dist/**', '**/node_modules/**', '**/.data/**', '**/.nx/**', '**/coverage/**'],
  },
  js.configs.recommended,
  ...moduleBoundaries,
  {
    // Plain JS (the stack scripts, Jest and bench helpers) runs in Node as it is: no type-aware rules.
    files: ['**/*.{js,mjs,cjs}'],
    languageOptions: { ecmaVersion: 'latest', globals: { ...globals.node } },
    rules: { 'no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }] },
  },
  {
    files: ['**/*.{ts,tsx,mts,cts}'],
    extends: [...tseslint.configs.recommendedTypeChecked],
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
      globals: { ...globals.node },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/switch-exhaustiveness-check': 'error',
      '@typescript-eslint/consistent-type-imports': [
        'error',
        { prefer: 'type-imports', fixStyle: 'inline-type-imports', disallowTypeAnnotations: false },
      ],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/require-await': 'off',
    },
  },
  {
    // Nest and TypeORM read constructor parameter types at run time: type-only imports would erase them.
    files: [
      'services/**/*.ts',
      'libs/platform/**/*.ts',
      'libs/domain/**/*.ts',
      'libs/testing/**/*.ts',
      'tools/**/*.ts',
    ],
    rules: { '@typescript-eslint/consistent-type-imports': 'off' },
  },
  {
    files: ['**/test/**/*.ts', '**/test/**/*.tsx', '**/*.test.ts'],
    rules: {
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/unbound-method': 'off',
    },
  },
  {
    // Every table's queries and writes live in libs/domain; services and the other libs call them.
    files: ['services/*/src/**/*.ts', 'libs/*/src/**/*.{ts,tsx}'],
    ignores: ['libs/domain/**', 'libs/testing/**', '**/*.test.ts'],
    plugins: { sprout: { rules: { 'no-sql-outside-domain': noSqlOutsideDomain } } },
    rules: { 'sprout/no-sql-outside-domain': 'error' },
  },
  {
    // The edge's spool is tested in front of the real sms-gateway, the way it is deployed.
    files: ['services/edge/test/**/*.ts'],
    rules: { 'no-restricted-imports': 'off' },
  },
  {
    files: ['web-public/**/*.{ts,tsx}', 'web-admin/**/*.{ts,tsx}', 'libs/ui/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
    },
  },
  {
    // HTTP shapes are defined once, in the endpoint table of libs/contracts: whoever serves or calls
    // an endpoint derives its types from there (EndpointInput, EndpointRequest, EndpointAnswer).
    files: [
      'services/api-gateway/src/**/*.ts',
      'services/sms-gateway/src/webhooks/**/*.ts',
      'web-admin/src/**/*.{ts,tsx}',
      'web-public/src/**/*.{ts,tsx}',
    ],
    rules: {
      'no-restricted-syntax': [
        'error',
        ...[
          'TSInterfaceDeclaration[id.name=/(Request|Response|Answer|Dto|Body|Query|Params)$/]',
          "TSTypeAliasDeclaration[id.name=/(Request|Response|Answer|Dto|Body|Query|Params)$/][typeAnnotation.type='TSTypeLiteral']",
          "VariableDeclarator[id.name=/(Request|Response|Answer|Dto|Body|Query|Params)$/] > CallExpression[callee.object.name='z']",
        ].map((selector) => ({
          selector,
          message:
            'Request and answer shapes of an endpoint live in libs/contracts (its endpoint table); derive from them.',
        })),
      ],
    },
  },
  {
    // The browser test harness lives in libs/testing but runs in Node; web tests may use it.
    files: ['web-public/test/**/*.{ts,tsx}', 'web-admin/test/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.node } },
  },
);
