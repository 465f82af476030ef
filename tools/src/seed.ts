import { Client } from 'pg';
import { isDemoSeeded, seedDemoData } from './seed/seed-demo';

// npm run seed -- --users N [--days 60] [--reset] [--once]   (tools/scripts/seed.mjs runs this)

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

async function main(): Promise<void> {
  const args = parseSeedArgs(process.argv.slice(2));
  const url = process.env.DATABASE_URL;
  if (!url)
    throw new Error('DATABASE_URL is not set (npm run seed sets it; running dist/seed.js directly needs it)');
  const client = new Client({ connectionString: url, application_name: 'sprout-seed' });
  await client.connect();
  try {
    if (args.once && !args.reset && (await isDemoSeeded(client))) {
      process.stdout.write('seed: demo data is already there (settings key demo_seeded); nothing to do\n');
      return;
    }
    process.stdout.write(
      `seed: ${args.users} users over ${args.days} days${args.reset ? ' (after a reset)' : ''}\n`,
    );
    const result = await seedDemoData(client, {
      users: args.users,
      days: args.days,
      reset: args.reset,
      batchSize: args.batchSize,
      log: (line) => process.stdout.write(`seed: ${line}\n`),
    });
    process.stdout.write(
      `seed: done in ${result.seconds.toFixed(1)} s: ${result.users} users, ${result.conversations} conversations, ` +
        `${result.messages} messages, ${result.llmCalls} llm calls, ${result.betaSignups} beta signups, ` +
        `${result.surveyDeliveries} survey deliveries\n`,
    );
  } finally {
    await client.end();
  }
}

if (require.main === module) {
  main().catch((error: unknown) => {
    process.stderr.write(`seed failed: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  });
}
