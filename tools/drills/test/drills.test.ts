// The short version of `npm run drills`: a stack of its own (a database and a Redis
// prefix of its own on DATABASE_URL's and REDIS_URL's servers; sms-gateway and ai-responder as
// child processes; the fake Twilio and fake OpenAI in this process), a few texts per drill, and
// three faults: duplicate webhooks, ai-responder SIGKILL, a burst of Twilio 500s. Every text must
// get exactly one reply sent.
import { type DrillRow, runDrills } from '../run-drills';

const DRILLS = ['duplicate-webhooks', 'ai-responder-sigkill', 'twilio-500-burst'];

// A stalled job (the SIGKILLed worker's) is taken back after BullMQ's 30 s lock, and the services
// start from sources: about 90 s on a quiet machine, 3 minutes at a load average of 27 on 2 cores.
jest.setTimeout(8 * 60_000);

describe('fault drills (short)', () => {
  let rows: DrillRow[] = [];

  beforeAll(async () => {
    const report = await runDrills({
      quick: true,
      // 20 texts at 15 a second: the SIGKILL (at 40%) still lands with texts in flight, every
      // other one of the duplicates is posted twice and two of them five times.
      messages: 20,
      rate: 15,
      outageSeconds: 60,
      modelFailureSeconds: 15,
      burstSeconds: 10,
      data: 'shared',
      only: DRILLS,
      out: null,
      log: () => undefined,
    });
    rows = report.rows;
  });

  it('runs every drill asked for', () => {
    expect(rows.map((r) => r.skipped)).toEqual(DRILLS.map(() => null));
    expect(rows.map((r) => r.inbound)).toEqual(DRILLS.map(() => 20));
  });

  it.each(DRILLS.map((name, i) => [name, i] as const))('%s: nothing lost, nothing sent twice', (_name, i) => {
    const row = rows[i];
    expect(row).toBeDefined();
    // The notes say what happened (kill timing, rows in Postgres) when a count is off.
    expect({ drill: row?.drill, lost: row?.lost, sentTwice: row?.sentTwice, notes: row?.notes }).toEqual({
      drill: row?.drill,
      lost: 0,
      sentTwice: 0,
      notes: row?.notes,
    });
  });
});
