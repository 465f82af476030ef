// What every standalone fake (npm start's sandbox) does: read its port, start, say where it
// listens, and close on SIGINT/SIGTERM.

/** The port in `variable`, or `fallback`; throws naming the variable when it is not a port. */
export function portFrom(variable: string, fallback: number): number {
  const port = Number(process.env[variable] ?? fallback);
  if (!Number.isInteger(port) || port < 0 || port > 65_535)
    throw new Error(`${variable} is not a port: ${process.env[variable]}`);
  return port;
}

/** Starts a fake, prints `name listening on <what it says>`, and closes it on a signal; exits 1 if it cannot start. */
export function runStandalone(
  name: string,
  start: () => Promise<{ close(): Promise<void>; describe: string }>,
): void {
  start().then(
    (fake) => {
      process.stdout.write(`${name} listening on ${fake.describe}\n`);
      const stop = (): void => {
        fake.close().then(
          () => process.exit(0),
          () => process.exit(1),
        );
      };
      process.once('SIGINT', stop);
      process.once('SIGTERM', stop);
    },
    (error: unknown) => {
      process.stderr.write(
        `${name} failed to start: ${error instanceof Error ? error.message : String(error)}\n`,
      );
      process.exit(1);
    },
  );
}
