// Test harness: isolated Postgres databases and Redis prefixes per test file, fake HTTP servers for
// the external APIs, and service fixtures on top of them. The browser harness is a separate entry
// (@sprout/testing/browser).
export * from './clock';
export * from './csv';
export * from './database';
export * from './fakes';
export * from './harness';
export * from './network';
export * from './opt-out-texts';
