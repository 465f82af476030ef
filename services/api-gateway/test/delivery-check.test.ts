import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { JobPayload, JobResult } from '@sprout/contracts';
import { Conversation, User } from '@sprout/domain';
import { type RunningWorkers, UnrecoverableError, createLogger, startWorkers } from '@sprout/platform';
import { CONVERSATION_NOT_FOUND, DELIVERY_CHECK_FAILED } from '../src/delivery-check/delivery-check.service';
import { login, startGateway, type TestGateway, expectStatusMessage } from './support/gateway';

// POST /api/admin/conversations/{id}/check-delivery. sms-gateway's worker is a stand-in here (a
// service never imports another); e2e/test/sms-path.test.ts runs the real one against fake Twilio.
let gw: TestGateway;
let app: NestFastifyApplication;
let cookie: string;
let workers: RunningWorkers;
let conversationId: string;
const received: Array<JobPayload<'delivery.check'>> = [];
let answer: (payload: JobPayload<'delivery.check'>) => Promise<JobResult<'delivery.check'>>;

beforeAll(async () => {
  gw = await startGateway();
  app = gw.app;
  cookie = await login(app);
  workers = await startWorkers({
    connection: gw.redis.connection,
    prefix: gw.redis.prefix,
    owns: ['delivery.check'],
    handlers: {
      'delivery.check': async (payload) => {
        received.push(payload);
        return answer(payload);
      },
    },
    logger: createLogger({ name: 'delivery-check-test', level: 'silent' }),
  });
  const user = await gw.db.dataSource
    .getRepository(User)
    .save({ phoneNumber: '+15035550150', isTestUser: false });
  const now = new Date();
  const conversation = await gw.db.dataSource
    .getRepository(Conversation)
    .save({ userId: user.id, startedAt: now, lastMessageAt: now, isTestUser: false });
  conversationId = conversation.id;
});
afterAll(async () => {
  await workers?.close();
  await gw?.close();
});
beforeEach(() => {
  received.length = 0;
  answer = async () => ({ changed: 0, checked: 0 });
});

const checkDelivery = (id: string, options: { payload?: unknown; withSession?: boolean } = {}) =>
  app.inject({
    method: 'POST',
    url: `/api/admin/conversations/${id}/check-delivery`,
    headers: options.withSession === false ? {} : { cookie },
    ...(options.payload === undefined ? { payload: {} } : { payload: options.payload as object }),
  });

it('requires an admin session', async () => {
  const response = await checkDelivery(conversationId, { withSession: false });
  expect(response.statusCode).toBe(401);
  expect(received).toHaveLength(0);
});

/** A 200 whose body reports the check's counts and says them in words. */
const expectChecked = (
  response: { statusCode: number; json: () => unknown },
  checked: number,
  updated: number,
  message: string,
): void => {
  expect(response.statusCode).toBe(200);
  expect(response.json()).toEqual({ success: true, checked, updated, message });
};

it('queues delivery.check for the conversation, waits for it and answers the counts', async () => {
  answer = async () => ({ changed: 1, checked: 3 });
  const before = Date.now();
  expectChecked(await checkDelivery(conversationId), 3, 1, 'Checked 3 messages; 1 updated.');
  expect(received).toHaveLength(1);
  expect(received[0]?.conversationId).toBe(conversationId);
  expect(Date.parse(received[0]?.requestedAt ?? '')).toBeGreaterThanOrEqual(before - 1000);
});

it('says so when no message is waiting for a status', async () => {
  const other = await gw.db.dataSource.getRepository(Conversation).save({
    userId: (await gw.db.dataSource.getRepository(User).findOneByOrFail({ phoneNumber: '+15035550150' })).id,
    startedAt: new Date(),
    lastMessageAt: new Date(),
    isTestUser: false,
  });
  expectChecked(await checkDelivery(other.id), 0, 0, 'No messages are waiting for a delivery status.');
});

it('checks again when asked again within the same minute', async () => {
  answer = async () => ({ changed: 0, checked: 1 });
  expect((await checkDelivery(conversationId)).json()).toMatchObject({ checked: 1, updated: 0 });
  answer = async () => ({ changed: 1, checked: 1 });
  expect((await checkDelivery(conversationId)).json()).toMatchObject({ checked: 1, updated: 1 });
  expect(received).toHaveLength(2);
});

it('answers 400 for a malformed id and 404 for an unknown conversation, queueing nothing', async () => {
  const malformed = await checkDelivery('not-a-uuid');
  expectStatusMessage(malformed, 400, 'Conversation id must be a UUID');

  const unknown = await checkDelivery('3f1c2f5e-9a51-4d3e-8f1b-2f0b6f1d9a11');
  expectStatusMessage(unknown, 404, CONVERSATION_NOT_FOUND);
  expect(received).toHaveLength(0);
});

it('answers 400 for a body that is not a JSON object', async () => {
  const response = await checkDelivery(conversationId, { payload: [1, 2] });
  expectStatusMessage(response, 400, 'The body must be a JSON object');
  expect(received).toHaveLength(0);
});

it('answers 502 when the check fails, and checks again when asked again', async () => {
  answer = async () => {
    throw new UnrecoverableError('Twilio unreachable');
  };
  const failed = await checkDelivery(conversationId);
  expectStatusMessage(failed, 502, DELIVERY_CHECK_FAILED);

  // Within the same minute (one job id): the finished job makes way and a new check runs.
  answer = async () => ({ changed: 2, checked: 2 });
  const retried = await checkDelivery(conversationId);
  expect(retried.statusCode).toBe(200);
  expect(retried.json()).toMatchObject({ success: true, checked: 2, updated: 2 });
  expect(received).toHaveLength(2);
});
