// DATABASE_URL for the one-off tools (migrate, seed): the variable when set, else the private
// Postgres that `npm start` uses (started for the duration of the command when not running).
import { resolveDataServices } from './stack.mjs';

export async function withDatabaseUrl(fn) {
  if (process.env.DATABASE_URL) return fn(process.env.DATABASE_URL);
  const services = await resolveDataServices({ purpose: 'start' });
  try {
    return await fn(services.databaseUrl);
  } finally {
    await services.stop();
  }
}
