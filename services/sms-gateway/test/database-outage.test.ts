// Postgres unreachable while a text arrives: the webhook answers 503 with Retry-After (the edge
// retries a 503 within Twilio's 15 s; Twilio itself does not retry), never 500, and the same text
// is stored once when it is sent again after Postgres is back.
import { Message } from '@sprout/domain';
import { DEPENDENCY_UNAVAILABLE_MESSAGE } from '@sprout/platform';
import { TcpRelay } from '@sprout/testing';
import { createApp } from '../src/app';
import { type GatewayHarness, nextPhone, startGateway } from './harness';

describe('webhook while Postgres is unreachable', () => {
  let h: GatewayHarness;
  let relay: TcpRelay;
  let inboundUrl: string;

  beforeAll(async () => {
    const direct = new URL(process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres');
    relay = new TcpRelay({ host: direct.hostname, port: Number(direct.port || 5432) });
    await relay.listen();
    // The harness makes the database; the gateway is then started again, its pool on the relay.
    h = await startGateway();
    await h.gateway.close();
    const url = new URL(h.db.url);
    url.host = `127.0.0.1:${relay.port}`;
    h.gateway = await createApp({ ...h.gateway.config, databaseUrl: url.toString() });
    inboundUrl = `${h.baseUrl}/webhooks/twilio/sms`;
  });
  afterAll(async () => {
    await h?.close();
    await relay?.close();
  });

  it('answers 503 with Retry-After while Postgres is cut, and stores the retried text once after', async () => {
    const params = {
      From: nextPhone(),
      To: '+15005550006',
      Body: 'When do I plant garlic?',
      MessageSid: 'SMoutage0000000000000000000000001',
    };
    relay.cut();
    const during = await h.twilio.sendInbound(inboundUrl, params);
    expect(during.status).toBe(503);
    expect(during.headers['retry-after']).toBe('5');
    expect((JSON.parse(during.body) as { message: string }).message).toBe(DEPENDENCY_UNAVAILABLE_MESSAGE);

    relay.restore();
    let after = await h.twilio.sendInbound(inboundUrl, params);
    // The pool may hand out a connection the cut killed before it notices: one more try, as the edge does.
    if (after.status === 503) after = await h.twilio.sendInbound(inboundUrl, params);
    expect(after.status).toBe(200);
    expect(await h.db.dataSource.getRepository(Message).countBy({ providerSid: params.MessageSid })).toBe(1);
  });
});
