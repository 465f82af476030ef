// The SMS path across services: sms-gateway (webhooks, consent, outbound, delivery checks),
// ai-responder (replies) and api-gateway (check-delivery), on one database and Redis prefix,
// with the real twilio SDK talking to the fake Twilio.
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { ConsentEvent, Conversation, LlmCall, Message, User } from '@sprout/domain';
import { JobQueues } from '@sprout/platform';
import { useServices } from '../src/fixtures';
import { eventually } from '../src/helpers';
import { adminCookie, type SmsGateway, SPROUT_NUMBER } from '../src/services';

describe('the SMS path across services', () => {
  const services = useServices();
  let sms: SmsGateway;
  let api: NestFastifyApplication;

  beforeAll(async () => {
    sms = await services.smsGateway();
    await services.responder();
    api = await services.apiGateway();
  });

  beforeEach(() => {
    sms.twilio.reset();
    sms.twilio.disableCallbacks = false;
  });

  const messages = () => services.db.dataSource.getRepository(Message);
  /** A text from `from`; answers its MessageSid. */
  const text = async (from: string, body: string, sid?: string) =>
    (await sms.text(from, body, sid)).params.MessageSid;
  const outboundOf = (userId: string) =>
    messages().find({ where: { userId, direction: 'outbound' }, order: { createdAt: 'ASC' } });

  it('answers the same MessageSid three times with one reply', async () => {
    const phone = '+15415550161';
    const sid = await text(phone, 'When should I plant tomatoes in Portland?');
    await text(phone, 'When should I plant tomatoes in Portland?', sid);
    await text(phone, 'When should I plant tomatoes in Portland?', sid);

    const user = await services.db.dataSource.getRepository(User).findOneByOrFail({ phoneNumber: phone });
    const reply = await eventually(async () => {
      const [first] = await outboundOf(user.id);
      return first?.status === 'delivered' ? first : undefined;
    }, 'the reply to be delivered');
    expect(reply.kind).not.toBe('consent');
    // Every job has run: the inbound job completed and the reply's send and callbacks are done.
    await sms.twilio.waitForCallbacks(2);
    expect(await messages().countBy({ userId: user.id, direction: 'inbound' })).toBe(1);
    expect(await messages().countBy({ userId: user.id, direction: 'outbound' })).toBe(1);
    expect(sms.twilio.sent.filter((m) => m.to === phone)).toHaveLength(1);
  });

  it('answers STOP with its confirmation only: no model call, no reply, nothing afterwards', async () => {
    const phone = '+15415550162';
    await text(phone, 'Stop.');
    const user = await services.db.dataSource.getRepository(User).findOneByOrFail({ phoneNumber: phone });
    expect(user.optedOut).toBe(true);
    const confirmation = await eventually(async () => {
      const [first] = await outboundOf(user.id);
      return first?.status === 'delivered' ? first : undefined;
    }, 'the opt-out confirmation to be delivered');
    expect(confirmation.kind).toBe('consent');
    expect(confirmation.content).toMatch(/unsubscribed/);

    // A question afterwards goes to the pipeline, which answers an opted-out user nothing.
    const sid = await text(phone, 'When do I plant garlic?');
    const question = await messages().findOneByOrFail({ providerSid: sid });
    const job = await sms.app.get(JobQueues).queue('sms.inbound').getJob(`inbound-${question.id}`);
    await eventually(
      async () => ((await job?.getState()) === 'completed' ? true : undefined),
      'the pipeline to finish with the question',
    );
    expect(await outboundOf(user.id)).toHaveLength(1);
    expect(await services.db.dataSource.getRepository(LlmCall).countBy({ userId: user.id })).toBe(0);
    expect(sms.twilio.sent.filter((m) => m.to === phone).map((m) => m.body)).toEqual([confirmation.content]);
    expect(await services.db.dataSource.getRepository(ConsentEvent).countBy({ userId: user.id })).toBe(1);
  });

  it('updates a delivery status through POST /api/admin/conversations/{id}/check-delivery', async () => {
    // No status callbacks: only the delivery check can learn that Twilio delivered the reply.
    sms.twilio.disableCallbacks = true;
    const phone = '+15415550163';
    await text(phone, 'How deep should I plant garlic cloves?');
    const user = await services.db.dataSource.getRepository(User).findOneByOrFail({ phoneNumber: phone });
    const sent = await eventually(async () => {
      const [first] = await outboundOf(user.id);
      return first?.providerSid ? first : undefined;
    }, 'the reply to be handed to Twilio');
    await eventually(
      async () => (sms.twilio.getMessage(sent.providerSid ?? '')?.status === 'delivered' ? true : undefined),
      'Twilio to deliver the reply',
    );
    expect((await messages().findOneByOrFail({ id: sent.id })).status).not.toBe('delivered');

    const cookie = await adminCookie(api);

    const conversation = await services.db.dataSource
      .getRepository(Conversation)
      .findOneByOrFail({ id: sent.conversationId });
    const response = await api.inject({
      method: 'POST',
      url: `/api/admin/conversations/${conversation.id}/check-delivery`,
      headers: { cookie },
      payload: {},
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ success: true, checked: 1, updated: 1 });
    const updated = await messages().findOneByOrFail({ id: sent.id });
    expect(updated.status).toBe('delivered');
    expect(updated.deliveredAt).not.toBeNull();
  });

  it('npm run sms: texts the stack with a signed webhook and prints the reply', async () => {
    const phone = '+15415550164';
    const tools = path.resolve(__dirname, '..', '..', 'tools');
    const { stdout } = await promisify(execFile)(
      process.execPath,
      [
        path.join(tools, 'stack', 'run.mjs'),
        path.join(tools, 'stack', 'sms-cli.ts'),
        '--from',
        phone,
        '--url',
        sms.inboundUrl,
        '--zip',
        '97201',
        '--timeout',
        '30',
        'When do I plant tomatoes?',
      ],
      {
        env: {
          ...process.env,
          TWILIO_ACCOUNT_SID: sms.twilio.accountSid,
          TWILIO_AUTH_TOKEN: sms.twilio.authToken,
          TWILIO_API_BASE_URL: sms.twilio.url,
          TWILIO_PHONE_NUMBER: SPROUT_NUMBER,
          PUBLIC_BASE_URL: new URL(sms.inboundUrl).origin,
        },
        timeout: 90_000,
      },
    );
    const user = await services.db.dataSource.getRepository(User).findOneByOrFail({ phoneNumber: phone });
    const [inbound] = await messages().findBy({ userId: user.id, direction: 'inbound' });
    expect(inbound).toMatchObject({
      content: 'When do I plant tomatoes?',
      locationHint: { zip: '97201', country: 'US' },
    });
    const [reply] = await outboundOf(user.id);
    expect(reply?.content).toBeTruthy();
    expect(stdout).toContain(`> ${phone} to ${SPROUT_NUMBER}: When do I plant tomatoes?`);
    expect(stdout).toContain(`< ${reply?.content ?? ''}`);
  });
});
