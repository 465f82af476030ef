// Service harness fixtures: stores per test file, services started on them, polling, probes.
export * from './checks';
export * from './eventually';
export * from './fixture';
export * from './seed';
export * from './stores';
