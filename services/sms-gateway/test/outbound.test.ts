import { Message } from '@sprout/domain';
import { JobQueues, WorkerHost } from '@sprout/platform';
import { useClosable } from '@sprout/testing';
import { OutboundService } from '../src/outbound/outbound.service';
import { type GatewayHarness, eventually, insertQueuedReply, nextPhone, startGateway } from './harness';

const statusOf = async (h: GatewayHarness, id: string, wanted: string[]) =>
  eventually(
    async () => {
      const message = await h.db.dataSource.getRepository(Message).findOneByOrFail({ id });
      return wanted.includes(message.status) ? message : undefined;
    },
    `message ${id} to reach ${wanted.join(' or ')}`,
  );

describe('outbound SMS and delivery status', () => {
  describe('in order', () => {
    const h = useClosable(() => startGateway({ callbackDelayMs: 5 }, { smsSendRatePerSecond: 7 }));
    beforeEach(() => h.twilio.reset());

    it('sends through Twilio with a status callback and ends delivered', async () => {
      const phone = nextPhone();
      const reply = await insertQueuedReply(h.db.dataSource, { phoneNumber: phone });
      await h.gateway.app.get(JobQueues).enqueue('sms.outbound', { messageId: reply.id });

      const delivered = await statusOf(h, reply.id, ['delivered']);
      expect(delivered.providerSid).toMatch(/^SM/);
      expect(delivered.deliveredAt).not.toBeNull();
      expect(delivered.sentAt).not.toBeNull();
      expect(delivered.segments).toBe(1);
      expect(h.twilio.sent).toHaveLength(1);
      expect(h.twilio.sent[0]).toMatchObject({
        to: phone,
        body: reply.content,
        statusCallback: `${h.baseUrl}/webhooks/twilio/status`,
      });
    });

    it('never sends a test user message and marks it delivered', async () => {
      const reply = await insertQueuedReply(h.db.dataSource, { phoneNumber: nextPhone(), isTestUser: true });
      await h.gateway.app.get(JobQueues).enqueue('sms.outbound', { messageId: reply.id });
      const delivered = await statusOf(h, reply.id, ['delivered']);
      expect(delivered.providerSid).toBeNull();
      expect(h.twilio.sent).toHaveLength(0);
    });

    it('records a permanent rejection as failed with its code, without retrying', async () => {
      h.twilio.failNext({ status: 400, code: 21211 });
      const reply = await insertQueuedReply(h.db.dataSource, { phoneNumber: nextPhone() });
      await h.gateway.app.get(JobQueues).enqueue('sms.outbound', { messageId: reply.id });
      const failed = await statusOf(h, reply.id, ['failed']);
      expect(failed.errorCode).toBe('21211');
      expect(failed.errorMessage).toBeTruthy();
      expect(h.twilio.sent).toHaveLength(0);
    });

    it('retries a 5xx answer with backoff and then sends once', async () => {
      h.twilio.failNext({ status: 503 });
      const reply = await insertQueuedReply(h.db.dataSource, { phoneNumber: nextPhone() });
      await h.gateway.app.get(JobQueues).enqueue('sms.outbound', { messageId: reply.id });
      await statusOf(h, reply.id, ['delivered']);
      expect(h.twilio.sent).toHaveLength(1);
    });

    it('retries a 429 answer with backoff and then sends once', async () => {
      h.twilio.failNext({ status: 429 });
      const reply = await insertQueuedReply(h.db.dataSource, { phoneNumber: nextPhone() });
      await h.gateway.app.get(JobQueues).enqueue('sms.outbound', { messageId: reply.id });
      const delivered = await statusOf(h, reply.id, ['delivered']);
      expect(delivered.errorCode).toBeNull();
      expect(h.twilio.sent).toHaveLength(1);
      const job = await h.gateway.app.get(JobQueues).queue('sms.outbound').getJob(`outbound-${reply.id}`);
      expect(job?.attemptsMade).toBe(2);
    });

    it('records a retryable failure as failed once the attempts are used up and the hold is over', async () => {
      const reply = await insertQueuedReply(h.db.dataSource, { phoneNumber: nextPhone() });
      // Written longer ago than a reply is held through Twilio failures (SMS_SEND_HOLD_MS).
      await h.db.dataSource
        .getRepository(Message)
        .update(
          { id: reply.id },
          { createdAt: new Date(Date.now() - h.gateway.config.smsSendHoldMs - 1000) },
        );
      h.twilio.failNext({ status: 500, times: 1 });
      // The last attempt records the failure instead of throwing it for another retry.
      const outcome = await h.gateway.app.get(OutboundService).send(reply.id, true);
      expect(outcome).toBe('failed');
      const failed = await h.db.dataSource.getRepository(Message).findOneByOrFail({ id: reply.id });
      expect(failed).toMatchObject({ status: 'failed', errorCode: '20500', providerSid: null });
      expect(failed.errorMessage).toBe('Internal Server Error');
    });

    it('does not send again when a job runs again after the sid was stored', async () => {
      const reply = await insertQueuedReply(h.db.dataSource, { phoneNumber: nextPhone() });
      const outbound = h.gateway.app.get(OutboundService);
      expect(await outbound.send(reply.id, false)).toBe('sent');
      expect(await outbound.send(reply.id, false)).toBe('already-sent');
      expect(h.twilio.sent).toHaveLength(1);
    });

    it('limits sends per second from our number with the configured rate', () => {
      const worker = h.gateway.app.get(WorkerHost).workers.get('sms.outbound');
      expect(worker?.opts.limiter).toEqual({ max: 7, duration: 1000 });
    });

    it('stores the error of an undelivered message', async () => {
      const phone = nextPhone();
      h.twilio.setOutcomeFor(phone, { status: 'undelivered', errorCode: 30003 });
      const reply = await insertQueuedReply(h.db.dataSource, { phoneNumber: phone });
      await h.gateway.app.get(JobQueues).enqueue('sms.outbound', { messageId: reply.id });
      const undelivered = await statusOf(h, reply.id, ['undelivered']);
      expect(undelivered.errorCode).toBe('30003');
      expect(undelivered.errorMessage).toBe('Unreachable destination handset');
      expect(undelivered.deliveredAt).toBeNull();
    });

    it('sends a repeated job only once', async () => {
      const reply = await insertQueuedReply(h.db.dataSource, { phoneNumber: nextPhone() });
      const queues = h.gateway.app.get(JobQueues);
      await queues.enqueue('sms.outbound', { messageId: reply.id });
      await statusOf(h, reply.id, ['delivered']);
      // The completed job is retained, so the same job id adds nothing; and the send is keyed on the stored sid.
      await queues.enqueue('sms.outbound', { messageId: reply.id });
      await h.twilio.waitForCallbacks(2);
      expect(h.twilio.sent).toHaveLength(1);
    });
  });

  describe('out of order callbacks', () => {
    const h = useClosable(() => startGateway({ callbackDelayMs: 5, sendOutOfOrder: true }));

    it('ignores a late "sent" after "delivered"', async () => {
      const reply = await insertQueuedReply(h.db.dataSource, { phoneNumber: nextPhone() });
      await h.gateway.app.get(JobQueues).enqueue('sms.outbound', { messageId: reply.id });
      const callbacks = await h.twilio.waitForCallbacks(2, 10_000);
      expect(callbacks.map((c) => c.params.MessageStatus)).toEqual(['delivered', 'sent']);
      expect(callbacks.every((c) => c.responseStatus === 204)).toBe(true);

      // Every status job has run (the first may have been retried: it can beat the stored sid).
      const queue = h.gateway.app.get(JobQueues).queue('sms.status');
      await eventually(async () => {
        const counts = await queue.getJobCounts('waiting', 'active', 'delayed', 'completed');
        return (counts.completed ?? 0) > 0 &&
          (counts.waiting ?? 0) + (counts.active ?? 0) + (counts.delayed ?? 0) === 0
          ? true
          : undefined;
      }, 'the status jobs');
      const message = await h.db.dataSource.getRepository(Message).findOneByOrFail({ id: reply.id });
      expect(message.status).toBe('delivered');
      expect(message.deliveredAt).not.toBeNull();
    });
  });
});
