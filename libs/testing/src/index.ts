// Test harness: isolated Postgres databases and Redis prefixes per test file, and fake HTTP
// servers for the external APIs. The browser harness is a separate entry (@sprout/testing/browser).
export * from './clock';
export * from './csv';
export * from './database';
export * from './fakes';
export * from './network';
export * from './opt-out-texts';
