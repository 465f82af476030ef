/** Reads a required connection URL for tests, with instructions when it is missing. */
export function requireTestEnv(name: 'DATABASE_URL' | 'REDIS_URL', example: string): string {
  const value = process.env[name];
  if (!value) {
    throw new Error(
      `${name} is not set. Tests need a real ${name === 'DATABASE_URL' ? 'Postgres (a role that may CREATE/DROP DATABASE)' : 'Redis'}: ` +
        `export ${name}=${example}`,
    );
  }
  return value;
}
