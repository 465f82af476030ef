import http from 'node:http';
import { type AddressInfo } from 'node:net';
import twilio from 'twilio';
import { FakeTwilio } from '../src/fakes';

const ACCOUNT_SID = `AC${'2'.repeat(32)}`;
const AUTH_TOKEN = 'fake-twilio-test-token';
const FROM = '+15005550006';
const TO = '+15557654321';

/** The twilio SDK pointed at the fake: a RequestClient that rewrites the API origin (as libs/sms does). */
function clientFor(fake: FakeTwilio, options: { authToken?: string; timeout?: number } = {}): twilio.Twilio {
  const base = new URL(fake.url);
  class FakeOriginClient extends twilio.RequestClient {
    override request<T>(opts: Parameters<typeof twilio.RequestClient.prototype.request<T>>[0]) {
      const target = new URL(opts.uri);
      return super.request<T>({ ...opts, uri: `${base.origin}${target.pathname}${target.search}` });
    }
  }
  return twilio(ACCOUNT_SID, options.authToken ?? AUTH_TOKEN, {
    httpClient: new FakeOriginClient({ timeout: options.timeout ?? 5_000 }),
  });
}

interface Hit {
  path: string;
  params: Record<string, string>;
  signatureValid: boolean;
}

/** An app endpoint that validates Twilio signatures with the SDK and answers with empty TwiML. */
async function startWebhookReceiver(): Promise<{ url: string; hits: Hit[]; close: () => Promise<void> }> {
  const hits: Hit[] = [];
  let url = '';
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const params = Object.fromEntries(new URLSearchParams(Buffer.concat(chunks).toString('utf8')));
      const signature = String(req.headers['x-twilio-signature'] ?? '');
      const signatureValid = twilio.validateRequest(AUTH_TOKEN, signature, `${url}${req.url ?? ''}`, params);
      hits.push({ path: req.url ?? '', params, signatureValid });
      if (!signatureValid)
        return res.writeHead(403, { 'Content-Type': 'text/plain' }).end('Invalid signature');
      res
        .writeHead(200, { 'Content-Type': 'text/xml' })
        .end('<?xml version="1.0" encoding="UTF-8"?><Response></Response>');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    hits,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

async function restError(promise: Promise<unknown>): Promise<twilio.RestException> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof twilio.RestException) return error;
    throw error;
  }
  throw new Error('expected a RestException');
}

describe('FakeTwilio', () => {
  let fake: FakeTwilio;
  let receiver: Awaited<ReturnType<typeof startWebhookReceiver>>;
  let client: twilio.Twilio;

  beforeAll(async () => {
    fake = await FakeTwilio.start({ accountSid: ACCOUNT_SID, authToken: AUTH_TOKEN, callbackDelayMs: 5 });
    receiver = await startWebhookReceiver();
    client = clientFor(fake);
  });

  afterAll(async () => {
    await fake.close();
    await receiver.close();
  });

  beforeEach(() => {
    fake.reset();
    fake.disableCallbacks = false;
    fake.sendOutOfOrder = false;
    receiver.hits.length = 0;
  });

  describe('Messages API', () => {
    it('creates a message in Twilio’s shape and records it', async () => {
      const message = await client.messages.create({
        to: TO,
        from: FROM,
        body: 'Your basil wants more sun.',
        mediaUrl: ['https://example.com/1.jpg', 'https://example.com/2.jpg'],
        statusCallback: `${receiver.url}/status`,
      });
      expect(message.sid).toMatch(/^SM[0-9a-f]{32}$/);
      expect(message).toMatchObject({
        status: 'queued',
        accountSid: ACCOUNT_SID,
        to: TO,
        from: FROM,
        body: 'Your basil wants more sun.',
        numSegments: '1',
        numMedia: '2',
        direction: 'outbound-api',
        errorCode: null,
      });
      expect(message.dateCreated).toBeInstanceOf(Date);
      const [recorded] = await fake.waitForMessages(1);
      expect(recorded).toMatchObject({
        sid: message.sid,
        mediaUrls: ['https://example.com/1.jpg', 'https://example.com/2.jpg'],
        statusCallback: `${receiver.url}/status`,
      });
    });

    it('counts segments like Twilio', async () => {
      const gsm = await client.messages.create({ to: TO, from: FROM, body: 'a'.repeat(161) });
      const ucs = await client.messages.create({ to: TO, from: FROM, body: '🌱'.repeat(36) });
      expect(gsm.numSegments).toBe('2');
      expect(ucs.numSegments).toBe('2');
    });

    it('accepts a messaging service instead of a From number', async () => {
      const message = await client.messages.create({
        to: TO,
        messagingServiceSid: `MG${'3'.repeat(32)}`,
        body: 'hi',
      });
      expect(message.messagingServiceSid).toBe(`MG${'3'.repeat(32)}`);
    });

    it('walks a message to delivered and serves its current status', async () => {
      const { sid } = await client.messages.create({
        to: TO,
        from: FROM,
        body: 'hi',
        statusCallback: `${receiver.url}/status`,
      });
      await fake.waitForCallbacks(2);
      const fetched = await client.messages(sid).fetch();
      expect(fetched).toMatchObject({ sid, status: 'delivered', errorCode: null, errorMessage: null });
    });

    it('requires basic auth with the account’s token', async () => {
      const error = await restError(
        clientFor(fake, { authToken: 'wrong' }).messages.create({ to: TO, from: FROM, body: 'hi' }),
      );
      expect(error).toMatchObject({ status: 401, code: 20003 });
      expect(fake.sent).toHaveLength(0);
    });

    it('rejects another account and unknown messages with 404', async () => {
      const other = twilio(`AC${'9'.repeat(32)}`, AUTH_TOKEN, {
        httpClient: (clientFor(fake) as unknown as { httpClient: twilio.RequestClient }).httpClient,
      });
      expect(await restError(other.messages.create({ to: TO, from: FROM, body: 'hi' }))).toMatchObject({
        status: 401,
      });
      expect(await restError(client.messages(`SM${'0'.repeat(32)}`).fetch())).toMatchObject({
        status: 404,
        code: 20404,
      });
    });

    it('validates the request like Twilio', async () => {
      expect(await restError(client.messages.create({ to: TO, from: FROM }))).toMatchObject({
        status: 400,
        code: 21602,
      });
      expect(
        await restError(client.messages.create({ to: '555-1234', from: FROM, body: 'hi' })),
      ).toMatchObject({
        status: 400,
        code: 21211,
      });
      expect(await restError(client.messages.create({ to: TO, body: 'hi' }))).toMatchObject({
        status: 400,
        code: 21603,
      });
      expect(
        await restError(client.messages.create({ to: TO, from: FROM, body: 'x'.repeat(1601) })),
      ).toMatchObject({
        code: 21617,
      });
      expect(fake.sent).toHaveLength(0);
    });
  });

  describe('status callbacks', () => {
    it('posts sent then delivered, signed as Twilio signs', async () => {
      const callbackUrl = `${receiver.url}/webhooks/twilio/status?id=7`;
      const { sid } = await client.messages.create({
        to: TO,
        from: FROM,
        body: 'hi',
        statusCallback: callbackUrl,
      });
      const callbacks = await fake.waitForCallbacks(2);
      expect(callbacks.map((c) => c.params.MessageStatus)).toEqual(['sent', 'delivered']);
      expect(receiver.hits.map((h) => h.path)).toEqual([
        '/webhooks/twilio/status?id=7',
        '/webhooks/twilio/status?id=7',
      ]);
      expect(receiver.hits.every((h) => h.signatureValid)).toBe(true);
      expect(callbacks[1]?.signature).toBe(
        twilio.getExpectedTwilioSignature(AUTH_TOKEN, callbackUrl, callbacks[1]?.params ?? {}),
      );
      expect(receiver.hits[1]?.params).toEqual({
        AccountSid: ACCOUNT_SID,
        ApiVersion: '2010-04-01',
        From: FROM,
        MessageSid: sid,
        MessageStatus: 'delivered',
        SmsSid: sid,
        SmsStatus: 'delivered',
        To: TO,
      });
    });

    it('ends per recipient: failed with 21610', async () => {
      fake.setOutcomeFor(TO, { status: 'failed', errorCode: 21610 });
      const { sid } = await client.messages.create({
        to: TO,
        from: FROM,
        body: 'hi',
        statusCallback: receiver.url,
      });
      const [callback] = await fake.waitForCallbacks(1);
      expect(callback?.params).toMatchObject({ MessageStatus: 'failed', ErrorCode: '21610' });
      await expect(client.messages(sid).fetch()).resolves.toMatchObject({
        status: 'failed',
        errorCode: 21610,
        errorMessage: 'Attempt to send to unsubscribed recipient',
      });
    });

    it('ends the next message undelivered (30003 by default), then back to delivered', async () => {
      fake.nextOutcome({ status: 'undelivered' });
      await client.messages.create({ to: TO, from: FROM, body: 'one', statusCallback: receiver.url });
      const first = await fake.waitForCallbacks(2);
      expect(first.map((c) => [c.params.MessageStatus, c.params.ErrorCode])).toEqual([
        ['sent', undefined],
        ['undelivered', '30003'],
      ]);
      await client.messages.create({ to: TO, from: FROM, body: 'two', statusCallback: receiver.url });
      const all = await fake.waitForCallbacks(4);
      expect(all[3]?.params.MessageStatus).toBe('delivered');
    });

    it('can deliver callbacks out of order', async () => {
      fake.sendOutOfOrder = true;
      const { sid } = await client.messages.create({
        to: TO,
        from: FROM,
        body: 'hi',
        statusCallback: receiver.url,
      });
      const callbacks = await fake.waitForCallbacks(2);
      expect(callbacks.map((c) => c.params.MessageStatus)).toEqual(['delivered', 'sent']);
      await expect(client.messages(sid).fetch()).resolves.toMatchObject({ status: 'delivered' });
    });

    it('can advance statuses without posting callbacks', async () => {
      fake.disableCallbacks = true;
      const { sid } = await client.messages.create({
        to: TO,
        from: FROM,
        body: 'hi',
        statusCallback: receiver.url,
      });
      let status = 'queued';
      for (let i = 0; i < 200 && status !== 'delivered'; i += 1) {
        status = (await client.messages(sid).fetch()).status;
        if (status !== 'delivered') await new Promise((resolve) => setTimeout(resolve, 10));
      }
      expect(status).toBe('delivered');
      expect(fake.callbacks).toHaveLength(0);
      expect(receiver.hits).toHaveLength(0);
    });

    it('records a callback target that is down without failing', async () => {
      await client.messages.create({
        to: TO,
        from: FROM,
        body: 'hi',
        statusCallback: 'http://127.0.0.1:1/status',
      });
      const callbacks = await fake.waitForCallbacks(2);
      expect(callbacks[0]?.responseStatus).toBeNull();
      expect(callbacks[0]?.error).toEqual(expect.any(String));
    });
  });

  describe('failure injection', () => {
    it('fails the next requests with Twilio errors, then recovers', async () => {
      fake.failNext({ status: 429, times: 2 });
      expect(await restError(client.messages.create({ to: TO, from: FROM, body: 'hi' }))).toMatchObject({
        status: 429,
        code: 20429,
      });
      expect(await restError(client.messages.create({ to: TO, from: FROM, body: 'hi' }))).toMatchObject({
        status: 429,
      });
      await expect(client.messages.create({ to: TO, from: FROM, body: 'hi' })).resolves.toMatchObject({
        status: 'queued',
      });
      expect(fake.sent).toHaveLength(1);
    });

    it('uses the given code and message', async () => {
      fake.failNext({ status: 400, code: 21610, message: 'Attempt to send to unsubscribed recipient' });
      const error = await restError(client.messages.create({ to: TO, from: FROM, body: 'hi' }));
      expect(error).toMatchObject({
        status: 400,
        code: 21610,
        message: 'Attempt to send to unsubscribed recipient',
      });
      fake.failNext({ status: 500 });
      expect(await restError(client.messages.create({ to: TO, from: FROM, body: 'hi' }))).toMatchObject({
        status: 500,
        code: 20500,
      });
    });

    it('delays the next answer past the client timeout', async () => {
      fake.delayNext(3_000);
      const impatient = clientFor(fake, { timeout: 150 });
      await expect(impatient.messages.create({ to: TO, from: FROM, body: 'hi' })).rejects.toMatchObject({
        code: 'ECONNABORTED',
      });
    });

    it('rejects opted-out numbers with 21610', async () => {
      fake.optOut(TO);
      expect(await restError(client.messages.create({ to: TO, from: FROM, body: 'hi' }))).toMatchObject({
        code: 21610,
      });
      fake.optIn(TO);
      await expect(client.messages.create({ to: TO, from: FROM, body: 'hi' })).resolves.toBeDefined();
    });

    it('times out waitForMessages when too few arrive', async () => {
      await expect(fake.waitForMessages(1, 30)).rejects.toThrow(/waiting for 1 message/);
    });
  });

  describe('inbound webhooks', () => {
    it('posts a signed inbound SMS the way Twilio does', async () => {
      const response = await fake.sendInbound(`${receiver.url}/webhooks/twilio/sms`, {
        From: TO,
        To: FROM,
        Body: 'When do I plant peas?',
        FromZip: '97201',
        FromCity: 'PORTLAND',
        FromState: 'OR',
      });
      expect(response.status).toBe(200);
      expect(response.body).toContain('<Response></Response>');
      expect(response.headers['content-type']).toBe('text/xml');
      const [hit] = receiver.hits;
      expect(hit?.signatureValid).toBe(true);
      expect(hit?.params).toMatchObject({
        From: TO,
        To: FROM,
        Body: 'When do I plant peas?',
        FromZip: '97201',
        NumMedia: '0',
        AccountSid: ACCOUNT_SID,
        SmsStatus: 'received',
        MessageSid: response.params.MessageSid,
      });
      expect(response.params.MessageSid).toMatch(/^SM[0-9a-f]{32}$/);
    });

    it('carries MMS media and a given MessageSid', async () => {
      const sid = `SM${'a'.repeat(32)}`;
      const response = await fake.sendInbound(`${receiver.url}/sms`, {
        From: TO,
        To: FROM,
        MessageSid: sid,
        MediaUrl0: 'https://api.twilio.com/media/leaf.jpg',
        MediaContentType0: 'image/jpeg',
      });
      expect(response.status).toBe(200);
      expect(receiver.hits[0]?.params).toMatchObject({
        MessageSid: sid,
        NumMedia: '1',
        Body: '',
        MediaUrl0: 'https://api.twilio.com/media/leaf.jpg',
        MediaContentType0: 'image/jpeg',
      });
    });

    it('can send a bad signature', async () => {
      const response = await fake.sendInbound(
        `${receiver.url}/sms`,
        { From: TO, To: FROM, Body: 'hi' },
        { authToken: 'not-the-token' },
      );
      expect(response.status).toBe(403);
      expect(receiver.hits[0]?.signatureValid).toBe(false);
    });

    it('signs exactly like twilio.getExpectedTwilioSignature', () => {
      const params = { Body: 'hi', From: TO };
      expect(fake.signWebhook('https://example.com/sms', params)).toBe(
        twilio.getExpectedTwilioSignature(AUTH_TOKEN, 'https://example.com/sms', params),
      );
    });
  });

  describe('sandbox control endpoints', () => {
    it('injects inbound messages and lists sent ones over HTTP', async () => {
      const inbound = await fetch(`${fake.url}/_fake/inbound`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ webhookUrl: `${receiver.url}/sms`, From: TO, To: FROM, Body: 'hello' }),
      });
      expect(inbound.status).toBe(200);
      expect(((await inbound.json()) as { status: number }).status).toBe(200);
      expect(receiver.hits[0]?.signatureValid).toBe(true);

      await client.messages.create({ to: TO, from: FROM, body: 'reply' });
      const listed = (await (await fetch(`${fake.url}/_fake/messages`)).json()) as {
        messages: Array<{ body: string }>;
      };
      expect(listed.messages.map((m) => m.body)).toEqual(['reply']);
    });
  });
});
