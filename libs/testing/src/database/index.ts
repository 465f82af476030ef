export { createTestDatabase, truncateAll, templateDatabaseName, type TestDatabase } from './test-database';
export { createTestRedis, type TestRedis } from './test-redis';
export { countersOf } from './counters';
export { recordReplyTo } from './replies';
