// Owns throw-away Postgres and Redis containers for `npm test` when a Docker daemon answers.
// Prints one JSON line with the URLs, then keeps the containers until SIGTERM or until its parent
// goes away (stdin closes); testcontainers' reaper removes them should this process die.
import { PostgreSqlContainer } from '@testcontainers/postgresql';
import { GenericContainer, Wait } from 'testcontainers';

const wanted = new Set(process.argv.slice(2));
const started = [];
const urls = {};

if (wanted.has('postgres')) {
  const postgres = await new PostgreSqlContainer('postgres:16-alpine')
    .withUsername('postgres')
    .withPassword('postgres')
    .withDatabase('postgres')
    .withCommand(['postgres', '-c', 'fsync=off', '-c', 'max_connections=300', '-c', 'synchronous_commit=off'])
    .start();
  started.push(postgres);
  urls.databaseUrl = postgres.getConnectionUri();
}

if (wanted.has('redis')) {
  const redis = await new GenericContainer('redis:7-alpine')
    .withCommand(['redis-server', '--appendonly', 'yes', '--maxmemory-policy', 'noeviction'])
    .withExposedPorts(6379)
    .withWaitStrategy(Wait.forLogMessage('Ready to accept connections'))
    .start();
  started.push(redis);
  urls.redisUrl = `redis://${redis.getHost()}:${redis.getMappedPort(6379)}`;
}

process.stdout.write(`${JSON.stringify(urls)}\n`);

let stopping = false;
const stop = async () => {
  if (stopping) return;
  stopping = true;
  for (const container of started.reverse()) await container.stop();
  process.exit(0);
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
process.stdin.on('end', stop);
process.stdin.resume();
