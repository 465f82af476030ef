// The pipeline benchmark's baseline: a bare Fastify handler doing the inbound webhook's essential
// work and nothing else: the same Twilio signature check (HMAC-SHA1 over URL + sorted params),
// one INSERT, one BullMQ add, the same empty TwiML. The webhook's latency and throughput are
// reported as ratios to it, so the machine's other load weighs on both alike.
import { parse } from 'node:querystring';
import { Queue } from 'bullmq';
import Fastify from 'fastify';
import { Pool } from 'pg';
import { validateTwilioSignature } from '@sprout/sms';

const TWIML = '<?xml version="1.0" encoding="UTF-8"?><Response></Response>';

export const BARE_TABLE_SQL = `CREATE TABLE IF NOT EXISTS bench_bare_inbound (
  id bigserial PRIMARY KEY,
  provider_sid varchar NOT NULL UNIQUE,
  phone_number varchar NOT NULL,
  content text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
)`;

export const startBare = async (
  env: Record<string, string | undefined>,
): Promise<{ close(): Promise<void> }> => {
  const authToken = env.TWILIO_AUTH_TOKEN ?? '';
  const publicBaseUrl = env.PUBLIC_BASE_URL ?? '';
  const pool = new Pool({ connectionString: env.DATABASE_URL, max: 10, application_name: 'bench-bare' });
  const queue = new Queue('bench.bare', {
    prefix: env.BULLMQ_PREFIX,
    connection: { url: env.REDIS_URL, maxRetriesPerRequest: null },
  });
  const app = Fastify({ logger: false });
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string' },
    (_request, body, done) => done(null, parse(body as string)),
  );
  app.post('/webhooks/twilio/sms', async (request, reply) => {
    const params = request.body as Record<string, string>;
    const valid = validateTwilioSignature({
      authToken,
      url: `${publicBaseUrl}${request.url}`,
      params,
      signature: request.headers['x-twilio-signature'],
    });
    if (!valid) return reply.code(403).send('Invalid Twilio signature');
    const { rows } = await pool.query<{ id: string }>(
      `INSERT INTO bench_bare_inbound (provider_sid, phone_number, content) VALUES ($1, $2, $3)
       ON CONFLICT (provider_sid) DO UPDATE SET content = EXCLUDED.content RETURNING id`,
      [params.MessageSid, params.From, params.Body],
    );
    await queue.add('inbound', { id: rows[0]?.id }, { jobId: `bare-${rows[0]?.id}`, removeOnComplete: true });
    return reply.type('text/xml').send(TWIML);
  });
  await app.listen({ host: '127.0.0.1', port: Number(env.PORT) });
  return {
    close: async () => {
      await app.close();
      await queue.close();
      await pool.end();
    },
  };
};
