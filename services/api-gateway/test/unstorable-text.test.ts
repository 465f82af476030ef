// Text Postgres refuses (NUL, an unpaired UTF-16 surrogate) typed into a form or a search box is a
// 400 that says so, never a 500. The fields' schemas use textField /
// searchParam of @sprout/contracts; the SMS webhook cleans such text instead (sms-gateway tests).
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { UNSTORABLE_TEXT } from '@sprout/contracts';
import { useClosable } from '@sprout/testing';
import { startSignedIn } from './support/gateway';

const gw = useClosable(() => startSignedIn());
let app: NestFastifyApplication;
let cookie: string;

beforeAll(async () => {
  ({ app, cookie } = gw);
});

const NUL = '\u0000';
const LONE = '\ud800';

const call = (method: 'GET' | 'POST', url: string, payload?: object) =>
  app.inject({
    method,
    url,
    headers: { cookie, 'x-forwarded-for': '203.0.113.7' },
    ...(payload === undefined ? {} : { payload }),
  });

const expectRefused = (res: Awaited<ReturnType<typeof call>>) => {
  expect({ status: res.statusCode, message: res.json<{ message: string }>().message }).toEqual({
    status: 400,
    message: expect.stringContaining(UNSTORABLE_TEXT),
  });
};

describe('text Postgres cannot store', () => {
  it.each([NUL, LONE])('is refused in the public beta signup (%j)', async (bad) => {
    expectRefused(
      await call('POST', '/api/beta-signup', { email: 'ann@example.com', region: `972${bad}01` }),
    );
    const email = await call('POST', '/api/beta-signup', { email: `ann${bad}@example.com`, region: '97201' });
    expect(email.statusCode).toBe(400);
    expect(await gw.ds.query('SELECT 1 FROM beta_signups')).toEqual([]);
  });

  it.each(['/api/admin/conversations', '/api/admin/users'])(
    'is refused in the search of %s',
    async (path) => {
      expectRefused(await call('GET', `${path}?search=${encodeURIComponent(`tom${NUL}ato`)}`));
      expect((await call('GET', `${path}?search=tomato`)).statusCode).toBe(200);
    },
  );

  it.each([NUL, LONE])("is refused in a simulator test user's name and message (%j)", async (bad) => {
    expectRefused(await call('POST', '/api/simulator/test-user', { testUserName: `Ann${bad}` }));
    const created = await call('POST', '/api/simulator/test-user', { testUserName: 'Ann' });
    expect(created.statusCode).toBe(201);
    const { id } = created.json<{ id: string }>();
    expectRefused(
      await call('POST', '/api/simulator/message', { userId: id, messageContent: `hi${bad}there` }),
    );
    expectRefused(
      await call('POST', '/api/simulator/message', {
        userId: id,
        messageContent: 'what is this?',
        imageUrl: `https://example.com/a${bad}.jpg`,
      }),
    );
    expect(await gw.ds.query('SELECT 1 FROM messages')).toEqual([]);
  });

  it('is refused in the login form and a survey campaign', async () => {
    const loginRes = await app.inject({
      method: 'POST',
      url: '/api/admin/login',
      headers: { 'x-forwarded-for': '203.0.113.8' },
      payload: { username: `ad${NUL}min`, password: 'whatever' },
    });
    expectRefused(loginRes);
    expectRefused(
      await call('POST', '/api/admin/survey-campaigns', {
        name: `Spring${NUL}`,
        surveyUrl: 'https://example.com/s',
      }),
    );
  });
});
