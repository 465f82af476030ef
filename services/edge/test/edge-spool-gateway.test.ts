// The edge's webhook spool in front of the real sms-gateway (its signature check and its
// store-once-per-MessageSid): webhooks posted while no gateway runs are answered 200 and kept;
// once it runs they are replayed, stored once and queued for their reply; a duplicate is harmless
// and a forged one is refused (403) and moved aside.
import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Message } from '@sprout/domain';
import { JobQueues, findFreePort } from '@sprout/platform';
import {
  FakeTwilio,
  type TestDatabase,
  type TestRedis,
  createTestDatabase,
  createTestRedis,
} from '@sprout/testing';
import { createApp } from '../../sms-gateway/src/app';
import { type Edge, createEdge } from '../src/edge';
import { edgeMetric, until } from './edge-support';

const EMPTY_TWIML = '<?xml version="1.0" encoding="UTF-8"?><Response/>';

describe('edge spool in front of sms-gateway', () => {
  let db: TestDatabase;
  let redis: TestRedis;
  let twilio: FakeTwilio;
  let edge: Edge;
  let edgeUrl: string;
  let smsPort: number;
  let spoolDir: string;
  let gateway: Awaited<ReturnType<typeof createApp>> | undefined;

  beforeAll(async () => {
    [db, redis, twilio] = await Promise.all([createTestDatabase(), createTestRedis(), FakeTwilio.start()]);
    spoolDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sprout-edge-spool-gateway-'));
    smsPort = await findFreePort();
    edge = createEdge({
      apiGatewayUrl: 'http://127.0.0.1:9',
      smsGatewayUrl: `http://127.0.0.1:${smsPort}`,
      webhookRetryBudgetMs: 300,
      spoolDir,
      log: () => undefined,
    });
    await new Promise<void>((resolve) => edge.listen(0, '127.0.0.1', resolve));
    edgeUrl = `http://127.0.0.1:${(edge.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    edge?.closeAllConnections();
    await new Promise((resolve) => edge?.close(resolve));
    await gateway?.close();
    await twilio?.close();
    await redis?.cleanup();
    await db?.drop();
    fs.rmSync(spoolDir, { recursive: true, force: true });
  });

  it('keeps webhooks while sms-gateway is down, then replays them: stored once, queued, forged one refused', async () => {
    const webhookUrl = `${edgeUrl}/webhooks/twilio/sms`;
    const text = {
      From: '+15035550142',
      To: '+15005550006',
      Body: 'When should I plant garlic in 97201?',
      MessageSid: 'SM0000000000000000000000000spool1',
    };
    const forged = { ...text, From: '+15035550143', MessageSid: 'SM0000000000000000000000000spool2' };

    // sms-gateway is not running: Twilio gets 200 and empty TwiML for each, nothing is lost.
    for (const answer of [
      await twilio.sendInbound(webhookUrl, text),
      await twilio.sendInbound(webhookUrl, text), // Twilio's fallback URL, or a retry: the same text
      await twilio.sendInbound(webhookUrl, forged, { authToken: 'not-the-real-token' }),
    ]) {
      expect(answer.status).toBe(200);
      expect(answer.body).toBe(EMPTY_TWIML);
    }
    expect(fs.readdirSync(path.join(spoolDir, 'pending'))).toHaveLength(3);
    expect(await edgeMetric(edge, 'sprout_edge_webhooks_spooled_total')).toBe(3);

    gateway = await createApp({
      databaseUrl: db.url,
      redisUrl: redis.url,
      bullmqPrefix: redis.prefix,
      host: '127.0.0.1',
      port: smsPort,
      publicBaseUrl: edgeUrl,
      twilioApiBaseUrl: twilio.url,
      twilioAccountSid: twilio.accountSid,
      twilioAuthToken: twilio.authToken,
      logLevel: 'silent',
    });
    await until(
      async () =>
        (await edgeMetric(edge, 'sprout_edge_webhooks_replayed_total')) === 2 &&
        (await edgeMetric(edge, 'sprout_edge_webhooks_dropped_total', { reason: 'rejected' })) === 1,
      'two replays taken and the forged one refused',
    );
    expect(fs.readdirSync(path.join(spoolDir, 'pending'))).toEqual([]);

    const messages = db.dataSource.getRepository(Message);
    const stored = await messages.findBy({ providerSid: text.MessageSid });
    expect(stored).toHaveLength(1);
    expect(stored[0]?.content).toBe(text.Body);
    expect(await messages.countBy({ providerSid: forged.MessageSid })).toBe(0);
    // Queued for its reply (ai-responder answers it).
    const job = await gateway.app.get(JobQueues).queue('sms.inbound').getJob(`inbound-${stored[0]?.id}`);
    expect(job?.data).toEqual({ messageId: stored[0]?.id });
    const reasons = fs.readdirSync(path.join(spoolDir, 'rejected')).filter((n) => n.endsWith('.reason.txt'));
    expect(reasons).toHaveLength(1);
    expect(fs.readFileSync(path.join(spoolDir, 'rejected', reasons[0] ?? ''), 'utf8')).toContain(
      'sms-gateway answered 403',
    );

    // With the gateway up the edge passes webhooks straight on; a third copy is still one text.
    const again = await twilio.sendInbound(webhookUrl, text);
    expect(again.status).toBe(200);
    expect(await messages.countBy({ providerSid: text.MessageSid })).toBe(1);
  });
});
