import { Client } from 'pg';
import { realTwilioRefusal } from './real-twilio';
import { isDemoSeeded, seedDemoData } from './seed-demo';

// npm run seed -- --users N [--days 60] [--reset] [--once]   (tools/stack/seed.mjs runs this)

export interface SeedArgs {
  users: number;
  days: number;
  reset: boolean;
  /** Only when the database has no demo data yet (what `npm start` does on first run). */
  once: boolean;
  batchSize: number;
}

const USAGE = 'usage: npm run seed -- --users N [--days 60] [--reset] [--once] [--batch 10000]';

export function parseSeedArgs(argv: readonly string[]): SeedArgs {
  const args: SeedArgs = { users: 1000, days: 60, reset: false, once: false, batchSize: 10_000 };
  const whole = (name: string, raw: string | undefined, min: number, max: number): number => {
    if (raw === undefined || !/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max) {
      throw new Error(
        `${name} needs a whole number between ${min} and ${max}, got ${raw ?? 'nothing'}\n${USAGE}`,
      );
    }
    return Number(raw);
  };
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i] ?? '';
    const eq = arg.startsWith('--') ? arg.indexOf('=') : -1;
    const flag = eq >= 0 ? arg.slice(0, eq) : arg;
    const inline = eq >= 0 ? arg.slice(eq + 1) : undefined;
    const value = (): string | undefined => inline ?? argv[++i];
    switch (flag) {
      case '--users':
        args.users = whole('--users', value(), 0, 10_000_000);
        break;
      case '--days':
        args.days = whole('--days', value(), 1, 3650);
        break;
      case '--batch':
        args.batchSize = whole('--batch', value(), 100, 1_000_000);
        break;
      case '--reset':
        args.reset = true;
        break;
      case '--once':
        args.once = true;
        break;
      default:
        throw new Error(`unknown argument ${arg}\n${USAGE}`);
    }
  }
  return args;
}

export type SeedOutcome = 'seeded' | 'already-seeded' | 'refused';

/**
 * One run of the seed as `npm run seed` and `npm start` make it, with the arguments and
 * environment given: refuses (and says why) with real Twilio credentials unless forced, adds
 * nothing with --once when demo data is there already, else seeds DATABASE_URL.
 */
export async function runSeed(
  argv: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
  write: (text: string) => void,
): Promise<SeedOutcome> {
  const args = parseSeedArgs(argv);
  const url = env.DATABASE_URL;
  if (!url)
    throw new Error('DATABASE_URL is not set (npm run seed sets it; running dist/seed.js directly needs it)');
  const client = new Client({ connectionString: url, application_name: 'sprout-seed' });
  await client.connect();
  try {
    if (args.once && !args.reset && (await isDemoSeeded(client))) {
      write('seed: demo data is already there (settings key demo_seeded); nothing to do\n');
      return 'already-seeded';
    }
    const refusal = realTwilioRefusal(env);
    if (refusal !== null) {
      write(`seed: skipped: ${refusal}\n`);
      return 'refused';
    }
    write(`seed: ${args.users} users over ${args.days} days${args.reset ? ' (after a reset)' : ''}\n`);
    const result = await seedDemoData(client, {
      users: args.users,
      days: args.days,
      reset: args.reset,
      batchSize: args.batchSize,
      // The sandbox's fake Twilio (npm start passes the port it reserved), never Twilio's media hosts.
      ...(env.TWILIO_API_BASE_URL?.trim() ? { mediaBaseUrl: env.TWILIO_API_BASE_URL.trim() } : {}),
      log: (line) => write(`seed: ${line}\n`),
    });
    write(
      `seed: done in ${result.seconds.toFixed(1)} s: ${result.users} users, ${result.conversations} conversations, ` +
        `${result.messages} messages, ${result.llmCalls} llm calls, ${result.betaSignups} beta signups, ` +
        `${result.surveyDeliveries} survey deliveries\n`,
    );
    return 'seeded';
  } finally {
    await client.end();
  }
}

async function main(): Promise<void> {
  const outcome = await runSeed(process.argv.slice(2), process.env, (text) => process.stdout.write(text));
  // Asked for directly, a refusal is a failure; npm start calls runSeed and carries on.
  if (outcome === 'refused') process.exitCode = 1;
}

if (require.main === module) {
  main().catch((error: unknown) => {
    process.stderr.write(`seed failed: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  });
}
