// Type-aware lint for every package's TypeScript, plain lint for its .js/.mjs/.cjs scripts, and the
// import boundaries of ARCHITECTURE §2.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

const services = [
  'api-gateway',
  'sms-gateway',
  'ai-responder',
  'survey-scheduler',
  'image-processor',
  'monitor',
  'edge',
];

const serviceBoundary = (self) => ({
  files: [`services/${self}/**/*.ts`],
  rules: {
    'no-restricted-imports': [
      'error',
      {
        patterns: services
          .filter((s) => s !== self)
          .flatMap((s) => [
            {
              group: [`@sprout/${s}`, `@sprout/${s}/*`],
              message: 'Services never import each other: talk through queues.',
            },
            {
              group: [`**/services/${s}/**`, `../../${s}/**`, `../${s}/**`],
              message: 'Services never import each other: talk through queues.',
            },
          ]),
      },
    ],
  },
});

export default tseslint.config(
  {
    ignores: ['**/dist/**', '**/node_modules/**', '**/.data/**', '**/.nx/**', '**/coverage/**'],
  },
  js.configs.recommended,
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
  ...services.map(serviceBoundary),
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
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: [
                '@sprout/domain',
                '@sprout/platform',
                '@sprout/llm',
                '@sprout/sms',
                '@sprout/gardening',
              ],
              message: 'Web apps use @sprout/ui and @sprout/contracts only: server code stays on the server.',
            },
            {
              group: [
                '**/services/**',
                '@sprout/api-gateway',
                '@sprout/sms-gateway',
                '@sprout/ai-responder',
                '@sprout/survey-scheduler',
                '@sprout/image-processor',
                '@sprout/monitor',
              ],
              message: 'Web apps never import a service.',
            },
            { group: ['**/libs/domain/**'], message: 'Web apps never import libs/domain.' },
          ],
        },
      ],
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
    rules: { 'no-restricted-imports': 'off' },
  },
);
