// A photo in the conversation simulator with no OpenAI key and no other variable: api-gateway,
// ai-responder and image-processor in-process on one database and Redis prefix. The photo travels
// the MMS path (image.analyze, a child of the reply) and the offline analyser describes it.
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { CreateTestUserResponse, SimulatorMessageResponse } from '@sprout/contracts';
import { Message } from '@sprout/domain';
import { useServices } from '../src/fixtures';
import { adminCookie } from '../src/services';

/** The stack's own sample at the default PUBLIC_BASE_URL: nothing listens there in this test. */
const SAMPLES = 'http://localhost:8080/api/image-samples';

const services = useServices();
let api: NestFastifyApplication;
let cookie: string;

beforeAll(async () => {
  const noKey = { openaiApiKey: undefined };
  api = await services.apiGateway(noKey);
  // The workers with an empty environment: the shipped defaults, whatever the shell has set.
  await services.responder(noKey, {});
  await services.imageProcessor(noKey, {});
  cookie = await adminCookie(api);
});

const send = async (name: string, payload: { messageContent: string; imageUrl: string }) => {
  const created = await api.inject({
    method: 'POST',
    url: '/api/simulator/test-user',
    headers: { cookie },
    payload: { testUserName: name },
  });
  expect(created.statusCode).toBe(201);
  const user = created.json<CreateTestUserResponse>();
  const res = await api.inject({
    method: 'POST',
    url: '/api/simulator/message',
    headers: { cookie },
    payload: { userId: user.id, ...payload },
  });
  expect(res.statusCode).toBe(200);
  const inbound = await services.db.dataSource
    .getRepository(Message)
    .findOneByOrFail({ userId: user.id, direction: 'inbound' });
  return { reply: res.json<SimulatorMessageResponse>().reply, inbound };
};

it('answers a photo with the offline analysis of it, not "I can\'t see photos"', async () => {
  const { reply, inbound } = await send('Photo Pia', { messageContent: '', imageUrl: `${SAMPLES}/leaf.jpg` });
  expect(inbound).toMatchObject({ imageProcessed: true, modelUsed: 'offline-image-analyzer' });
  expect(reply?.content).toMatch(/^Offline photo check: 96x72 JPEG, 1\.4 KB\. About 85% green foliage/);
  expect(reply?.content).toContain("I can't identify plants offline; what plant is it and what changed?");
  expect(reply?.content).not.toMatch(/can't see photos/);
  expect(reply?.cost).toBe(0);
});

it('answers a gardening question with a photo by the advisor, then the photo check', async () => {
  const { reply } = await send('Photo Pete', {
    messageContent: 'Why are the tips brown?',
    imageUrl: `${SAMPLES}/leaf.png`,
  });
  // The advisor's words on brown tips first (whatever its data says), the photo check after them.
  const [answer, photo] = (reply?.content ?? '').split('\n\nOffline photo check: ');
  expect(answer).toMatch(/brown/i);
  expect(photo).toMatch(/^96x72 PNG, 1\.8 KB\./);
});

it('keeps "I can\'t see photos" for a photo that could not be analysed', async () => {
  const { reply, inbound } = await send('Photo Paz', {
    messageContent: '',
    imageUrl: `${SAMPLES}/missing.jpg`,
  });
  expect(inbound).toMatchObject({
    imageProcessed: false,
    imageProcessingError: 'Could not fetch the image: HTTP 404',
  });
  expect(reply?.content).toMatch(/^I can't see photos right now/);
});
