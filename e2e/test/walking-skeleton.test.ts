// The walking skeleton end to end: a signed inbound SMS reaches sms-gateway, ai-responder writes
// a reply, sms-gateway sends it through (fake) Twilio and the status callbacks mark it delivered.
import { Message, User } from '@sprout/domain';
import { JobQueues, type ServiceApp } from '@sprout/platform';
import { useServices } from '../src/fixtures';
import { eventually } from '../src/helpers';
import type { SmsGateway } from '../src/services';

describe('walking skeleton: SMS in, advice out', () => {
  const services = useServices();
  let sms: SmsGateway;
  let responder: ServiceApp;

  beforeAll(async () => {
    sms = await services.smsGateway();
    responder = await services.responder();
  });

  it('delivers exactly one reply, also when Twilio repeats the webhook', async () => {
    const phone = '+15415550142';
    const sid = `SM${'e'.repeat(32)}`;
    const answer = await sms.text(phone, 'How often should I water my new apple tree?', sid);
    expect(answer.status).toBe(200);
    expect(answer.body).toBe('<?xml version="1.0" encoding="UTF-8"?><Response></Response>');

    const messages = services.db.dataSource.getRepository(Message);
    const user = await services.db.dataSource.getRepository(User).findOneByOrFail({ phoneNumber: phone });
    const reply = await eventually(
      () =>
        messages
          .findOneBy({ userId: user.id, direction: 'outbound', status: 'delivered' })
          .then((m) => m ?? undefined),
      'the reply to be delivered',
    );
    expect(reply.providerSid).toMatch(/^SM/);
    expect(reply.deliveredAt).not.toBeNull();
    expect(sms.twilio.sent).toHaveLength(1);
    expect(sms.twilio.sent[0]).toMatchObject({ to: phone, body: reply.content });

    // Twilio retries the same webhook: nothing new is stored, answered or sent.
    const repeat = await sms.text(phone, 'How often should I water my new apple tree?', sid);
    expect(repeat.status).toBe(200);
    expect(await messages.countBy({ userId: user.id, direction: 'inbound' })).toBe(1);
    const inbound = await messages.findOneByOrFail({ providerSid: sid });
    const inboundJob = await responder.app
      .get(JobQueues)
      .queue('sms.inbound')
      .getJob(`inbound-${inbound.id}`);
    expect(await inboundJob?.getState()).toBe('completed');
    expect(await messages.countBy({ userId: user.id, direction: 'outbound' })).toBe(1);
    expect(sms.twilio.sent).toHaveLength(1);
  });
});
